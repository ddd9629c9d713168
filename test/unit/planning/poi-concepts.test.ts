import { describe, expect, it } from 'vitest';
import { poiConcepts, poiConceptById, FOOD_QUALIFIER_IDS } from '../../../src/lexicon/poi-concepts.js';
import { TagFilterSchema } from '../../../src/planning/plan.js';

describe('poiConcepts lexicon', () => {
  it('is broad: 150+ kinds of places with unique snake_case ids', () => {
    expect(poiConcepts.length).toBeGreaterThanOrEqual(150);
    const ids = poiConcepts.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9_]*$/);
  });

  it('gives every concept English and Chinese forms, English in lower case', () => {
    for (const c of poiConcepts) {
      expect(c.en.length, c.id).toBeGreaterThan(0);
      expect(c.zh.length, c.id).toBeGreaterThan(0);
      for (const f of c.en) expect(f, c.id).toBe(f.toLowerCase());
    }
  });

  it('gives every concept valid OSM tag filters and a near radius', () => {
    for (const c of poiConcepts) {
      expect(c.tags.length, c.id).toBeGreaterThan(0);
      for (const t of c.tags) expect(TagFilterSchema.safeParse(t).success, `${c.id} ${JSON.stringify(t)}`).toBe(true);
      expect(c.nearM, c.id).toBeGreaterThan(0);
    }
  });

  it('uses the OSM value of the primary tag as category, and keeps cuisines and diets as tags', () => {
    expect(poiConceptById.get('cafe')?.categories).toEqual(['cafe']);
    expect(poiConceptById.get('books')?.categories).toEqual(['books']);
    expect(poiConceptById.get('fitness_centre')?.categories).toEqual(['fitness_centre']);
    expect(poiConceptById.get('korean')?.tags).toEqual([['cuisine', ['korean']]]);
    for (const id of FOOD_QUALIFIER_IDS) {
      const c = poiConceptById.get(id)!;
      expect(c.categories, id).toEqual([]);
      expect(c.tags.every(([k]) => k === 'cuisine' || k.startsWith('diet:')), id).toBe(true);
    }
  });

  it('covers the implied needs people phrase as activities', () => {
    const has = (id: string, form: string) => expect(poiConceptById.get(id)?.en, `${id}: ${form}`).toContain(form);
    has('steak_house', 'steak lunch');
    has('atm', 'withdraw money');
    has('bank', 'withdraw cash');
    has('fitness_centre', 'lift weights');
    has('cafe', 'grab a coffee');
    has('theatre', 'catch a show');
    has('museum', 'look at art');
    has('vegan', 'plant-based');
    has('hairdresser', 'haircut');
    has('bicycle_rental', 'bike share');
  });
});
