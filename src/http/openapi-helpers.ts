/**
 * The pieces every route definition shares: JSON content, problem+json error responses built from
 * {@link ProblemBodySchema}, and the id path parameters.
 */
import { z } from '@hono/zod-openapi';
import { ProblemBodySchema } from './problem.ts';

export const PROBLEM_TYPE = 'application/problem+json';

/** A response (or request body) of JSON described by `schema`. */
export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** A required JSON request body. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({ content: { 'application/json': { schema } }, required: true });

/** An error response: an RFC 9457 problem document (the 400s name the bad fields in `errors`). */
export const problemResponse = (description: string) => ({
  description,
  content: { [PROBLEM_TYPE]: { schema: ProblemBodySchema } },
});

/** The usual error responses of a route whose input is validated. */
export const invalidRequest = problemResponse('invalid request: problem+json naming the fields');

/** The largest id of an `integer` (int4) column. */
export const INT4_MAX = 2_147_483_647;

/** `{id}`: a positive integer row id, at most `max` (the column's range; a bigint id is bounded by exact JS integers). */
export const numericIdParams = (max: number = Number.MAX_SAFE_INTEGER) =>
  z.object({ id: z.coerce.number().int().min(1).max(max).openapi({ param: { name: 'id', in: 'path' }, example: 42 }) });

/** `{id}` as text, with the rule its values follow. */
export const textIdParams = <T extends z.ZodString>(id: T) => z.object({ id });

/** Degradations: present when an answer was computed without a failing dependency. */
export const DegradationSchema = z
  .object({ component: z.literal('embeddings'), cause: z.string(), fallback: z.string() })
  .openapi('Degradation', { description: 'which dependency failed, why, and what was used instead' });

/** A GeoJSON geometry (RFC 7946), WGS84 longitude/latitude: its `type` and `coordinates` (or `geometries`). */
export const GeometrySchema = z
  .object({
    type: z.string(),
    coordinates: z.unknown().openapi({ description: 'positions nested as the type says' }),
    geometries: z.array(z.unknown()).optional().openapi({ description: 'a GeometryCollection\'s members' }),
  })
  .openapi('Geometry', { description: 'a GeoJSON geometry (RFC 7946) in WGS84: Point, LineString, Polygon, their Multi forms or a GeometryCollection' });

/**
 * GeoJSON feature properties: open by nature (a place's properties carry its OSM tags), so a named record of
 * JSON values rather than a fixed shape.
 */
export const FeaturePropertiesSchema = z
  .record(z.string(), z.unknown())
  .openapi('FeatureProperties', { description: 'the properties of a GeoJSON feature: named JSON values' });

export const LinkSchema = z
  .object({ href: z.string(), rel: z.string(), type: z.string().optional(), title: z.string().optional() })
  .openapi('Link');
