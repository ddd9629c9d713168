import { describe, expect, it } from 'vitest';
import { planOffline } from '../../../src/planning/offline-planner.ts';
import { DISTANCE_MAX_M, SpatialPlanSchema } from '../../../src/planning/plan.ts';
import { constraintsOf, refOf } from './helpers.ts';

/** Every plan in this file must also be a valid HTTP payload. */
function plan(q: string, opts?: Parameters<typeof planOffline>[1]) {
  const p = planOffline(q, opts);
  const checked = SpatialPlanSchema.safeParse(p);
  expect(checked.success, JSON.stringify(checked.error?.issues)).toBe(true);
  return p;
}

describe('English distances', () => {
  it.each([
    ['Any cafés within 200 m of the Old Mill Tower?', 'within_distance(Old Mill Tower, 200)'],
    ['List pharmacies within 500 meters of Riverside General Hospital.', 'within_distance(Riverside General Hospital, 500)'],
    ['Give me taverns or wine bars no further than 250 metres from the Harbour Ferry Terminal.', 'within_distance(Harbour Ferry Terminal, 250)'],
    ['hotels within 2 km of Lyon Part-Dieu', 'within_distance(Lyon Part-Dieu, 2000)'],
    ['Bakeries within 0.5 miles of Lakeside Station?', 'within_distance(Lakeside Station, 805)'],
    ['Any bookshops within 1,500 m of the Corn Exchange?', 'within_distance(Corn Exchange, 1500)'],
    ['Where can I buy flowers within half a mile of Elm Park?', 'within_distance(Elm Park, 805)'],
  ])('%s', (q, expected) => {
    expect(constraintsOf(plan(q))).toEqual([expected]);
  });

  it('converts walking time at 80 m per minute and says so in the notes', () => {
    const p = plan('Could I find a guesthouse within a 5-minute walk of Glass Pavilion?');
    expect(constraintsOf(p)).toEqual(['within_distance(Glass Pavilion, 400)']);
    expect(p.notes.join(' ')).toMatch(/400 m/);
    expect(constraintsOf(plan('a ten minute walk from Central Station, any cafés?'))).toEqual(['within_distance(Central Station, 800)']);
  });

  it('converts blocks at 80 m per block', () => {
    expect(constraintsOf(plan('bookstores 3 blocks from Washington Square Park'))).toEqual(['within_distance(Washington Square Park, 240)']);
  });

  it('sizes a vague "near" with 500 m for a place, and 5 km for a city (gazetteer hint)', () => {
    const p = plan('coffee near the Louvre');
    expect(constraintsOf(p)).toEqual(['within_distance(Louvre, 500)']);
    expect(p.notes.some((n) => /near .*500 m/.test(n))).toBe(true);
    const city = plan('hotels near Lyon', { gazetteerHint: (t) => (t === 'Lyon' ? 'city' : undefined) });
    expect(constraintsOf(city)).toEqual(['within_distance(Lyon, 5000)']);
    expect(refOf(city, 'Lyon')?.kind).toBe('city');
  });

  it('reads "next to" as 100 m and "walking distance" as 800 m', () => {
    expect(constraintsOf(plan('Which hotels are next to the Civic Arena?'))).toEqual(['within_distance(Civic Arena, 100)']);
    expect(constraintsOf(plan('dentists within walking distance of the Flatiron Building'))).toEqual(['within_distance(Flatiron Building, 800)']);
    expect(constraintsOf(plan('Somewhere to eat close to Columbia University?'))).toEqual(['within_distance(Columbia University, 500)']);
  });

  it('uses a distance said apart from the place to size the vague constraint', () => {
    expect(constraintsOf(plan('Cafés near Bryant Park, within 200 m please'))).toEqual(['within_distance(Bryant Park, 200)']);
  });

  it('caps huge distances and notes unsupported minimum distances', () => {
    expect(plan('hotels within 1,900 km of Old Town Square').constraints[0]).toMatchObject({ distanceM: DISTANCE_MAX_M });
    expect(plan('hotels within 900 km of Old Town Square').constraints[0]).toMatchObject({ distanceM: 900_000 });
    const p = plan('Show me museums more than 5 km from the Central Station');
    expect(p.notes.join(' ')).toMatch(/minimum distance is not supported/);
    expect(p.confidence).toBeLessThan(0.5);
  });
});

describe('English inside / along / route / between', () => {
  it('reads "in", "inside", "located in" as inside an area', () => {
    const p = plan('Which libraries are in Tribeca?');
    expect(constraintsOf(p)).toEqual(['inside(Tribeca)']);
    expect(p.references[0]?.kind).toBe('area');
    expect(constraintsOf(plan('Which cafés are inside Riverside Park?'))).toEqual(['inside(Riverside Park)']);
    expect(constraintsOf(plan('What supermarkets are there in the Latin Quarter?'))).toEqual(['inside(Latin Quarter)']);
  });

  it('strips a possessive qualifier into the reference context, but keeps possessive names', () => {
    const p = plan("Any hostels in Brooklyn's Chinatown?");
    expect(p.references).toEqual([{ id: 'r1', text: 'Chinatown', kind: 'area', context: 'Brooklyn' }]);
    expect(refOf(plan("Any quiet cafés near St. Patrick's Cathedral?"), "St. Patrick's Cathedral")).toBeDefined();
  });

  it('keeps "in <city>" after a place as context, not as a second constraint', () => {
    const p = plan('hotels near the Louvre in Paris');
    expect(constraintsOf(p)).toEqual(['within_distance(Louvre, 500)']);
    expect(p.references[0]?.context).toBe('Paris');
  });

  it('reads "along X Avenue" and "on X Street" as along a street, 100 m', () => {
    const p = plan('Which pharmacies are along Maple Avenue?');
    expect(constraintsOf(p)).toEqual(['along(Maple Avenue, 100)']);
    expect(p.references[0]?.kind).toBe('street');
    expect(constraintsOf(plan('Which hotels are on Elm Street?'))).toEqual(['along(Elm Street, 100)']);
    expect(constraintsOf(plan('What bakeries are on Rue de Rivoli?'))).toEqual(['along(Rue de Rivoli, 100)']);
    expect(constraintsOf(plan('Name the cinemas along 10th Avenue.'))).toEqual(['along(10th Avenue, 100)']);
  });

  it('treats "within N m of <street>" as along with that buffer', () => {
    expect(constraintsOf(plan('cafés within 50 m of Harbor Boulevard'))).toEqual(['along(Harbor Boulevard, 50)']);
  });

  it('reads "from A to B" as a route with a 200 m corridor', () => {
    const p = plan("I'm walking from the Old Library to Central Station. Any coffee shops on the way?");
    expect(p.route).toEqual({ from: 'r1', to: 'r2', via: 'straight' });
    expect(p.references.map((r) => r.text)).toEqual(['Old Library', 'Central Station']);
    expect(constraintsOf(p)).toEqual(['along(route, 200)']);
    expect(p.targets.concepts).toEqual(['cafe']);
    const q = plan('Motels along the route from Elm Park to the Civic Arena.');
    expect(constraintsOf(q)).toEqual(['along(route, 200)']);
  });

  it('reads "between A and B" as the corridor between them', () => {
    const p = plan('Is there an ATM between Union Station and the Capitol?');
    expect(constraintsOf(p)).toEqual(['between(Union Station, Capitol, 200)']);
    expect(p.targets.concepts).toContain('atm');
  });

  it('combines several constraints with AND', () => {
    const p = plan('cafés in Chelsea and within 300 m of the High Line');
    expect(constraintsOf(p).sort()).toEqual(['inside(Chelsea)', 'within_distance(High Line, 300)']);
  });

  it('reads a street corner as along both streets', () => {
    const p = plan('Which restaurants are at the corner of 5th Avenue and 42nd Street?');
    expect(constraintsOf(p)).toEqual(['along(5th Avenue, 100)', 'along(42nd Street, 100)']);
  });

  it('reads "that cross X" as intersects', () => {
    expect(constraintsOf(plan('Which bridges cross the Harlem River?'))).toEqual(['intersects(Harlem River)']);
  });
});

describe('English nearest', () => {
  it.each([
    ['What is the nearest post office to the Woolworth Building?', 'nearest(Woolworth Building, k=1)'],
    ['Which florist is closest to Elm Park?', 'nearest(Elm Park, k=1)'],
    ['What are the two closest pubs to the Lighthouse?', 'nearest(Lighthouse, k=2)'],
    ['the 3 nearest gas stations to Union Station', 'nearest(Union Station, k=3)'],
    ['Find the closest five hotels to the Grand Arena', 'nearest(Grand Arena, k=5)'],
    ['What are the closest bars to Wrigley Field?', 'nearest(Wrigley Field, k=3)'],
  ])('%s', (q, expected) => {
    const p = plan(q);
    expect(constraintsOf(p)).toEqual([expected]);
    expect(p.preference).toBe('nearest');
  });

  it('anchors "the closest café near X" on X without an extra radius', () => {
    expect(constraintsOf(plan('the closest café near Old Town Square'))).toEqual(['nearest(Old Town Square, k=1)']);
  });
});

describe('English references', () => {
  it('strips articles and trailing punctuation, and stops at clause words', () => {
    const p = plan('vegan restaurants near the Brandenburg Gate that are open now?');
    expect(p.references.map((r) => r.text)).toEqual(['Brandenburg Gate']);
    expect(p.semantic.cues).toEqual(expect.arrayContaining(['vegan', 'open_now']));
  });

  it('handles questions typed in lower case', () => {
    const p = plan('cafes near grand central terminal open late');
    expect(p.references.map((r) => r.text)).toEqual(['grand central terminal']);
    expect(p.semantic.cues).toContain('open_late');
  });

  it('reads coordinates in the text as a coordinates reference (lat, lon)', () => {
    const p = plan('cafes near 40.7527, -73.9772');
    expect(p.references[0]).toMatchObject({ kind: 'coordinates', point: { lon: -73.9772, lat: 40.7527 } });
    expect(constraintsOf(p)).toEqual(['within_distance(40.7527, -73.9772, 500)']);
    expect(plan('cafes around 40.7527 N, 73.9772 W').references[0]?.point).toEqual({ lon: -73.9772, lat: 40.7527 });
  });

  it('uses the asker position for "near me" and for questions that name no place', () => {
    const near = { lon: 2.35, lat: 48.85 };
    const p = plan('pharmacies near me', { near });
    expect(p.references).toEqual([{ id: 'r1', text: 'me', kind: 'coordinates', point: near }]);
    expect(constraintsOf(p)).toEqual(['within_distance(me, 500)']);
    const q = plan('Is there a barber I could walk to?', { near });
    expect(q.references[0]?.point).toEqual(near);
    expect(q.constraints[0]).toMatchObject({ fn: 'within_distance', distanceM: 500 });
  });

  it('puts a distance without a place, or a bare "nearby", around the asker', () => {
    const near = { lon: -0.12, lat: 51.5 };
    expect(plan('pharmacies within 300 m', { near }).constraints).toEqual([{ fn: 'within_distance', ref: 'r1', distanceM: 300 }]);
    const p = plan('Any cafés nearby?', { near });
    expect(p.references[0]).toMatchObject({ kind: 'coordinates', point: near });
    expect(p.targets.concepts).toEqual(['cafe']);
    // ...but a bare "nearby" next to a named place refers to that place.
    expect(constraintsOf(plan('I am at Bryant Park, any cafés nearby?'))).toEqual(['within_distance(Bryant Park, 500)']);
    expect(constraintsOf(plan('Which shops are at the Oculus?'))).toEqual(['within_distance(Oculus, 100)']);
  });

  it('returns confidence 0 when there is no place and no position', () => {
    const p = plan('Is there a barber I could walk to?');
    expect(p.confidence).toBe(0);
    expect(p.references[0]).toEqual({ id: 'r1', text: 'my location', kind: 'coordinates' });
    expect(p.notes.join(' ')).toMatch(/position/);
  });

  it('prefers the gazetteer hint over word cues, and survives a throwing hint', () => {
    const p = plan('Any bookshops on the Strand?', { gazetteerHint: (t) => (t === 'Strand' ? 'street' : undefined) });
    expect(constraintsOf(p)).toEqual(['along(Strand, 100)']);
    const q = plan('coffee near the Louvre', {
      gazetteerHint: () => {
        throw new Error('gazetteer down');
      },
    });
    expect(constraintsOf(q)).toEqual(['within_distance(Louvre, 500)']);
  });

  it('does not turn a kind of place into a reference', () => {
    const p = plan('restaurants near the hotel');
    expect(p.targets.concepts).toEqual(['restaurant']);
    expect(p.notes.join(' ')).toMatch(/kind of place as the anchor/);
  });
});

describe('English targets and semantics', () => {
  it.each<[string, string[]]>([
    ['Taverns or cocktail bars no further than 250 metres from the Harbour Ferry Terminal?', ['pub', 'bar']],
    ['Somewhere for a steak lunch near the Old Mill Tower?', ['steak_house']],
    ['Running low on cash - anywhere within a 4-minute walk of the Civic Arena to withdraw some?', ['bank', 'atm']],
    ['Is there somewhere I can work out in Tribeca?', ['fitness_centre', 'sports_centre']],
    ['An espresso, please, no more than a 3-minute walk from the Glass Pavilion.', ['cafe']],
    ['Where can I catch a show within 400 m of the Central Station?', ['theatre']],
    ["I'd like to look at art near Elm Park.", ['museum', 'gallery']],
    ['Somewhere for a haircut close to Elm Park?', ['hairdresser', 'barber']],
    ['Bike share docks along East 9th Street?', ['bicycle_rental']],
    ['Which Korean restaurants are in Flushing?', ['korean']],
    ['restaurants serving thai food near the Old Mill Tower', ['thai']],
  ])('%s', (q, concepts) => {
    expect(plan(q).targets.concepts).toEqual(concepts);
  });

  it('unions the tags of the concepts (any pair matches)', () => {
    const p = plan('Running low on cash - anywhere within a 4-minute walk of the Civic Arena to withdraw some?');
    expect(p.targets.tags).toEqual([
      ['amenity', ['bank', 'atm']],
      ['atm', ['yes']],
    ]);
    expect(p.targets.categories).toEqual(['bank', 'atm']);
  });

  it('maps "vegan" to the diet tag', () => {
    const p = plan('Something vegan to eat in the Meatpacking District?');
    expect(p.targets.tags).toContainEqual(['diet:vegan', ['yes', 'only']]);
    expect(p.semantic.cues).toContain('vegan');
  });

  it('never takes a kind of place from inside a reference name', () => {
    expect(plan('coffee near Tompkins Square Park').targets.concepts).toEqual(['cafe']);
    expect(plan('pharmacies near the Staten Island Ferry Terminal').targets.concepts).toEqual(['pharmacy']);
  });

  it('separates the semantic need from the spatial phrase, and ranks by quality when asked', () => {
    const p = plan('Cheap sushi places open late near Union Square?');
    expect(p.spatialText).toBe('near Union Square');
    expect(p.semantic.text).toBe('Cheap sushi places open late');
    expect(p.semantic.cues).toEqual(['cheap', 'open_late']);
    expect(p.preference).toBe('best');
    expect(plan('Any cafés within 200 m of the Old Mill Tower?').preference).toBe('balanced');
  });

  it('lowers confidence when no kind of place is found', () => {
    const p = plan('What is within 300 m of the Old Mill Tower?');
    expect(p.targets.concepts).toEqual([]);
    expect(p.confidence).toBeLessThan(0.7);
    expect(p.confidence).toBeGreaterThan(0);
  });
});
