import { describe, expect, it } from 'vitest';
import { planOffline } from '../../../src/planning/offline-planner.ts';
import { chooseTradeOff, rankCandidates } from '../../../src/ranking/rank.ts';
import { dominant, notableReading, type GazetteerRow } from '../../../src/spatial/gazetteer-match.ts';
import type { Candidate } from '../../../src/spatial/retrieve.ts';

// Places that tie on every score must come out in one order whatever order the database returned them in:
// row ids and the physical order of rows change with each load of the same data, source ids do not.

function row(sourceId: string, id: number): GazetteerRow {
  return { id, name: 'Lindenhof Chapel', source_id: sourceId, category: 'place_of_worship', gtype: 'POINT', area: 0, lon: 8.54, lat: 47.37, tags: { amenity: 'place_of_worship' }, has_prose: false };
}

function candidate(sourceId: string, id: number, category = 'bakery', metres = 120): Candidate {
  return {
    id, sourceId, name: 'Corner Bakery', category, description: null, bbox: [8.54, 47.37, 8.54, 47.37],
    distances: [metres], satisfied: [true], tagMatch: true, semanticSimilarity: 0.5, spatialSimilarity: 0.5, population: null,
  };
}

describe('ties between equally good places', () => {
  const first = row('node/100', 7);
  const second = row('node/200', 3);

  it('the notable name that stands out is read from the same place whichever comes first', () => {
    const shop = { ...row('node/300', 1), name: 'Lindenhof Chapel Gifts', tags: {} };
    const linked = (r: GazetteerRow) => ({ ...r, tags: { ...r.tags, wikidata: 'Q1' } });
    expect(dominant([linked(first), linked(second), shop])?.source_id).toBe('node/100');
    expect(dominant([linked(second), linked(first), shop])?.source_id).toBe('node/100');
  });

  it('the best-reading name among notable ones is the same whichever comes first', () => {
    const a = { row: { ...first, name: 'Lindenhof Chapel East' }, score: 0.8 };
    const b = { row: { ...second, name: 'Lindenhof Chapel East' }, score: 0.8 };
    expect(notableReading([a, b])?.source_id).toBe('node/100');
    expect(notableReading([b, a])?.source_id).toBe('node/100');
  });

  it('ranks candidates with equal scores and distances by source id', () => {
    const plan = planOffline('bakeries within 300 m of Lindenhof', {});
    const order = (cands: Candidate[]) => rankCandidates(plan, cands, chooseTradeOff(plan)).map((c) => c.sourceId);
    expect(order([candidate('node/9', 1), candidate('node/10', 2)])).toEqual(['node/10', 'node/9']);
    expect(order([candidate('node/10', 2), candidate('node/9', 1)])).toEqual(['node/10', 'node/9']);
  });
});

describe('parts of a place asked for by its kind', () => {
  const rankOf = (question: string, cands: Candidate[]) => {
    const plan = planOffline(question, {});
    return rankCandidates(plan, cands, chooseTradeOff(plan)).map((c) => c.category);
  };

  it('answers a station, not the platform or stop position that carries its tags', () => {
    const cands = [candidate('way/1', 1, 'platform', 5), candidate('node/2', 2, 'stop_position', 8), candidate('node/3', 3, 'station', 40)];
    expect(rankOf('closest metro station to the Lindenhof', cands)).toEqual(['station']);
  });

  it('keeps an entrance when entrances are a kind of what is asked for', () => {
    const cands = [candidate('node/4', 4, 'subway_entrance', 10), candidate('node/3', 3, 'station', 40)];
    expect(rankOf('subway entrances within 200 m of the Lindenhof', cands).sort()).toEqual(['station', 'subway_entrance']);
  });

  it('keeps parts when nothing else of the kind was found', () => {
    expect(rankOf('closest metro station to the Lindenhof', [candidate('way/1', 1, 'platform', 5)])).toEqual(['platform']);
  });
});

