// Negation and alternatives through the real route on the Midtown data: the answers are checked against
// PostGIS directly (the reference geometries the response reports, measured here, not by the service's SQL).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testMode } from '../helpers/database.ts';
import { hasNycData, NO_NYC_DATA } from '../helpers/data.ts';
import { askOffline, startTestService, type TestService } from '../helpers/service.ts';

interface AskResponse {
  answer: string;
  candidates: { id: number; name: string; why: string }[];
  plan: { constraints: { fn: string; ref?: string; distanceM?: number; negated?: boolean; anyOf?: string }[] };
  reference: { features: { geometry: unknown; properties: { ref: string; name: string | null } }[] };
}

describe.skipIf(!hasNycData)(`negation and alternatives through POST /v1/ask on the Midtown data (${testMode} mode)`, () => {
  let service: TestService;
  beforeAll(async () => (service = await startTestService({}, { fixture: 'nyc' })));
  afterAll(async () => service?.stop());

  const ask = (question: string, k = 20) => askOffline<AskResponse>(service, question, k);

  const geometryOf = (body: AskResponse, ref: string) => {
    const f = body.reference.features.find((x) => x.properties.ref === ref);
    expect(f).toBeDefined();
    return sql`ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(f!.geometry)}), 4326)`;
  };

  /** For each id: metres to the geometry of each reference, and whether its point on surface lies in it. */
  async function measure(ids: number[], body: AskResponse, refs: string[]) {
    const out = new Map<number, { d: number[]; inside: boolean[] }>();
    for (const id of ids) out.set(id, { d: [], inside: [] });
    for (const ref of refs) {
      const g = geometryOf(body, ref);
      const { rows } = await sql<{ id: number; d: number; inside: boolean }>`
        SELECT id, ST_Distance(geog, ${g}::geography) AS d, ST_Intersects(ST_PointOnSurface(geom), ${g}) AS inside
        FROM places WHERE id = ANY(${ids}::bigint[])`.execute(service.database.db);
      for (const r of rows) {
        out.get(Number(r.id))!.d.push(Number(r.d));
        out.get(Number(r.id))!.inside.push(r.inside);
      }
    }
    return out;
  }

  it('not in an area: every answer is near the landmark and outside the area, and the area did hold some', async () => {
    const both = await ask('restaurants within 500 m of the Empire State Building');
    const body = await ask('restaurants within 500 m of the Empire State Building but not in Koreatown');
    expect(body.plan.constraints).toMatchObject([
      { fn: 'within_distance', ref: 'r1', distanceM: 500 },
      { fn: 'inside', ref: 'r2', negated: true },
    ]);
    expect(body.candidates.length).toBeGreaterThanOrEqual(5);
    const measured = await measure(body.candidates.map((c) => c.id), body, ['r1', 'r2']);
    for (const m of measured.values()) {
      expect(m.d[0]).toBeLessThanOrEqual(502);
      expect(m.inside[1]).toBe(false);
    }
    // Without the negation, some answers lie in Koreatown: the negation removed them.
    const before = await measure(both.candidates.map((c) => c.id), body, ['r2']);
    expect([...before.values()].some((m) => m.inside[0])).toBe(true);
    expect(body.candidates[0]!.why).toMatch(/outside Koreatown/);
  });

  it('alternatives: every answer is near one of the two places, and each place contributes', async () => {
    const body = await ask('banks near Herald Square or Madison Square Park', 30);
    expect(body.plan.constraints).toMatchObject([
      { fn: 'within_distance', ref: 'r1', distanceM: 500, anyOf: 'g1' },
      { fn: 'within_distance', ref: 'r2', distanceM: 500, anyOf: 'g1' },
    ]);
    const measured = [...(await measure(body.candidates.map((c) => c.id), body, ['r1', 'r2'])).values()];
    expect(measured.length).toBeGreaterThanOrEqual(4);
    for (const m of measured) expect(Math.min(m.d[0]!, m.d[1]!)).toBeLessThanOrEqual(502);
    expect(measured.some((m) => m.d[0]! <= 500 && m.d[1]! > 500)).toBe(true);
    expect(measured.some((m) => m.d[1]! <= 500 && m.d[0]! > 500)).toBe(true);
  });

  it('in Chinese: 不在 … 内 excludes the area', async () => {
    const body = await ask('帝国大厦500米以内、不在韩国城内的餐厅');
    const negated = body.plan.constraints.find((c) => c.negated);
    expect(negated).toMatchObject({ fn: 'inside' });
    const measured = await measure(body.candidates.map((c) => c.id), body, [negated!.ref!]);
    expect(measured.size).toBeGreaterThanOrEqual(3);
    for (const m of measured.values()) expect(m.inside[0]).toBe(false);
  });
});

if (!hasNycData) console.warn(NO_NYC_DATA);
