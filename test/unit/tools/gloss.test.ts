import { describe, expect, it } from 'vitest';
import { buildLexicalIndex, docTerms, queryTerms } from '../../../src/tools/lexical.ts';
import { chooseGlosses } from '../../../src/tools/search/gloss.ts';

const index = buildLexicalIndex(
  [
    ['gap_fill', 'Fill the gaps that clouds leave in a scene from neighbouring dates'],
    ['topology', 'Repair broken polygon geometries and their topology'],
    ['deshade', 'Remove shadows. Haze. Smoke. Glint. Snow. Dust. Optical.'],
    ['deflag', 'Strip shadows. Haze. Smoke. Glint. Snow. Dust. Optical. Flags.'],
    ['slope', 'Slope and aspect of a terrain model'],
  ].map(([id, text]) => [id!, docTerms({ id: id!, fields: [{ text: text!, weight: 1 }] })] as const),
);

const chosen = (senses: string[][], context: string) => chooseGlosses(index, [{ text: '某', senses }], queryTerms(context))[0]?.words;

describe('choosing the sense of a glossed Chinese word by what the catalog says beside the request', () => {
  it('takes the sense a tool text shares with the other words of the request', () => {
    expect(chosen([['repair'], ['patch'], ['fill']], 'cloud gaps in the scene')).toEqual(['fill']);
    expect(chosen([['repair'], ['patch'], ['fill']], 'polygon geometries')).toEqual(['repair']);
  });

  it('keeps the commonest sense when no sense meets the request in any tool', () => {
    expect(chosen([['repair'], ['fill']], 'terrain slope')).toEqual(['repair']);
  });

  it('prefers an earlier sense unless a later one co-occurs clearly better', () => {
    // A tool holds "strip" with one request word more than the tool holding "remove": not enough for the rarer sense.
    expect(chosen([['remove'], ['strip']], 'shadows, haze, smoke, glint, snow, dust, optical, flags')).toEqual(['remove']);
    // Two words more are.
    expect(chosen([['remove'], ['strip']], 'shadows, haze, smoke, glint, snow, optical, flags')).toEqual(['strip']);
  });

  it('leaves out a word whose commonest sense names nothing', () => {
    expect(chooseGlosses(index, [{ text: '看看', senses: [[], ['examine']] }], queryTerms('slope'))).toEqual([]);
  });
});
