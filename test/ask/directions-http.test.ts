// "north of X" through the real route on the Midtown data: every candidate returned must lie in the asked
// compass sector of the reference, checked here independently of the service's SQL: the candidate's
// representative point from PostGIS, the reference's closest point and the bearing from @turf/turf.
import * as turf from '@turf/turf';
import type { Feature, LineString, MultiLineString, Point, Polygon, MultiPolygon, Position } from 'geojson';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEARING_DEGREES, type Bearing } from '../../src/planning/plan.ts';
import { SECTOR_HALF_WIDTH_DEG } from '../../src/spatial/functions/direction.ts';
import { testMode } from '../helpers/database.ts';
import { hasNycData, NO_NYC_DATA } from '../helpers/data.ts';
import { startTestService, type TestService } from '../helpers/service.ts';

type Geometry = Point | LineString | MultiLineString | Polygon | MultiPolygon;

interface AskResponse {
  answer: string;
  candidates: { id: number; name: string; why: string }[];
  plan: { lang: string; constraints: { fn: string; bearing?: Bearing; distanceM?: number }[] };
  reference: { features: { geometry: Geometry; properties: { name: string | null } }[] };
}

/** The point of the reference nearest to `p` (the reference itself for a point; its outline for an area). */
function closestPoint(reference: Geometry, p: Feature<Point>): Position {
  if (reference.type === 'Point') return reference.coordinates;
  const lines = reference.type === 'Polygon' || reference.type === 'MultiPolygon' ? turf.polygonToLine(reference) : turf.feature(reference);
  const parts = lines.type === 'FeatureCollection' ? lines.features : [lines];
  const nearest = parts
    .map((line) => turf.nearestPointOnLine(line.geometry as LineString | MultiLineString, p, { units: 'meters' }))
    .sort((a, b) => a.properties.dist - b.properties.dist)[0]!;
  return nearest.geometry.coordinates;
}

/** Degrees between two bearings (0..180). */
function angleBetween(a: number, b: number): number {
  const d = Math.abs((((a - b) % 360) + 360) % 360);
  return d > 180 ? 360 - d : d;
}

describe.skipIf(!hasNycData)(`direction relations through POST /v1/ask on the Midtown data (${testMode} mode)`, () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({}, { fixture: 'nyc' });
  });
  afterAll(async () => service?.stop());

  async function ask(question: string, k = 10): Promise<AskResponse> {
    const res = await fetch(`${service.url}/v1/ask`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question, k, planner: 'offline' }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as AskResponse;
  }

  /** Each candidate's representative point, and whether it is within `metres` of the reference but not on it. */
  async function measured(ids: number[], reference: Geometry, metres: number) {
    const ref = sql`ST_SetSRID(ST_GeomFromGeoJSON(${JSON.stringify(reference)}), 4326)`;
    const { rows } = await sql<{ id: number; point: string; in_range: boolean }>`
      SELECT id, ST_AsGeoJSON(ST_PointOnSurface(geom)) AS point,
             ST_DWithin(geog, ${ref}::geography, ${metres + 2}) AND NOT ST_Intersects(geom, ${ref}) AS in_range
      FROM places WHERE id = ANY(${ids}::bigint[])`.execute(service.database.db);
    return ids.map((id) => {
      const row = rows.find((r) => Number(r.id) === id)!;
      return { id, point: turf.point((JSON.parse(row.point) as Point).coordinates), inRange: row.in_range };
    });
  }

  async function expectAllInSector(body: AskResponse, bearing: Bearing, referenceName: string) {
    const constraint = body.plan.constraints[0]!;
    expect(constraint).toMatchObject({ fn: 'direction', bearing });
    const reference = body.reference.features[0]!;
    expect(reference.properties.name).toBe(referenceName);
    expect(body.candidates.length).toBeGreaterThanOrEqual(3);
    for (const c of await measured(body.candidates.map((x) => x.id), reference.geometry, constraint.distanceM!)) {
      expect(c.inRange).toBe(true);
      const seen = turf.bearing(turf.point(closestPoint(reference.geometry, c.point)), c.point);
      // 1 degree for the planar frame of the service against turf's sphere.
      expect(angleBetween(seen, BEARING_DEGREES[bearing])).toBeLessThanOrEqual(SECTOR_HALF_WIDTH_DEG + 1);
    }
    return body.candidates.map((c) => c.id);
  }

  it('restaurants north of Bryant Park lie north of the park; those south of it, south: no place in both', async () => {
    const north = await expectAllInSector(await ask('Which restaurants are north of Bryant Park?'), 'north', 'Bryant Park');
    const south = await expectAllInSector(await ask('Which restaurants are south of Bryant Park?'), 'south', 'Bryant Park');
    expect(north.filter((id) => south.includes(id))).toEqual([]);
  });

  it('an intercardinal sector from a building, with a distance: bars 400 m south-east of the Empire State Building', async () => {
    const body = await ask('bars 400 m south-east of the Empire State Building');
    expect(body.plan.constraints[0]).toMatchObject({ distanceM: 400 });
    await expectAllInSector(body, 'south_east', 'Empire State Building');
    expect(body.candidates[0]!.why).toMatch(/south-east of Empire State Building/);
  });

  it('in Chinese: 布莱恩公园以西的咖啡店', async () => {
    const body = await ask('布莱恩公园以西的咖啡店');
    expect(body.plan.lang).toBe('zh');
    await expectAllInSector(body, 'west', 'Bryant Park');
  });
});

if (!hasNycData) console.warn(NO_NYC_DATA);
