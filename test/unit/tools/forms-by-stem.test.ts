import { describe, expect, it } from 'vitest';
import { matchFormsByStem } from '../../../src/tools/knowledge/index.ts';
import { parseToolRequest } from '../../../src/tools/request/index.ts';

const concepts = (text: string) => matchFormsByStem(text, ['concept']).flatMap((h) => h.ids);

describe('knowledge graph forms met in another inflection', () => {
  it('finds a concept whose words are inflected or derived differently', () => {
    expect(concepts('which slopes of the valley got deforested')).toContain('deforestation');
    expect(concepts('the villages that were inundating every spring')).toContain('flood');
    expect(parseToolRequest('outline the hillsides that were deforested last winter').concepts.map((c) => c.id)).toContain('deforestation');
  });

  it('does not read a bare word as a form derived from it, nor words apart as one phrase', () => {
    // "greening" is a form of a trend; the colour "green" is not.
    expect(concepts('keep the blue, green and red bands')).not.toContain('time_series_trend');
    expect(matchFormsByStem('burned. area', ['concept']).some((h) => h.form.includes(' '))).toBe(false);
  });

  it('reports offsets in the text and the graph form', () => {
    const [hit] = matchFormsByStem('hillsides were deforested', ['concept']);
    expect(hit).toMatchObject({ form: 'deforestation', start: 15, end: 25 });
  });
});

describe('knowledge graph phrases met with a word of the same family', () => {
  it('finds a phrase whose last word matches and whose other words are of the same family', () => {
    expect(concepts('how fast is the coast erosion on the headland')).toContain('coastline');
    expect(concepts('a topography analysis of the slopes')).toContain('terrain');
  });

  it('does not take a phrase whose last word differs, or a word apart from the phrase', () => {
    expect(concepts('the coast walk along the headland')).not.toContain('coastline');
    expect(concepts('erosion of the coast')).not.toContain('coastline');
  });
});
