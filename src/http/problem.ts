import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export const FieldErrorSchema = z
  .object({
    in: z.string().openapi({ description: 'where the bad value is: `body`, `query`, `path` or `header`' }),
    field: z.string().openapi({ description: 'dotted path of the field, e.g. `near.lon`' }),
    message: z.string(),
  })
  .openapi('FieldError');
export type FieldError = z.infer<typeof FieldErrorSchema>;

/**
 * The one error type of the HTTP edge. Anything thrown that is not an ApiError becomes a 500 whose
 * details go to the log, never to the client.
 */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly title: string,
    readonly detail?: string,
    readonly errors?: FieldError[],
    /** A short slug; the problem type URI is built from it. */
    readonly code: string = slug(title),
  ) {
    super(detail ?? title);
    this.name = 'ApiError';
  }
}

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/(^-|-$)/g, '');
}

/** RFC 9457 problem details, the body of every error answer. */
export const ProblemBodySchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string().optional(),
    instance: z.string().optional(),
    requestId: z.string().optional(),
    errors: z.array(FieldErrorSchema).optional(),
  })
  .openapi('Problem');
export type ProblemBody = z.infer<typeof ProblemBodySchema>;

export function problemBody(error: ApiError, instance?: string, requestId?: string): ProblemBody {
  return {
    type: `https://spatial-rag.dev/problems/${error.code}`,
    title: error.title,
    status: error.status,
    ...(error.detail ? { detail: error.detail } : {}),
    ...(instance ? { instance } : {}),
    ...(requestId ? { requestId } : {}),
    ...(error.errors?.length ? { errors: error.errors } : {}),
  };
}

/** RFC 9457 problem+json response, with any extra headers (Retry-After, WWW-Authenticate). */
export function problem(c: Context, error: ApiError, headers: Record<string, string> = {}): Response {
  const body = problemBody(error, c.req.path, c.get('requestId') as string | undefined);
  return c.body(JSON.stringify(body), error.status, { 'content-type': 'application/problem+json', ...headers });
}

/**
 * A refusal before the body is read: the connection closes after the answer, so that the unread rest of
 * the body is not taken for the next request, and no client sends one on a socket about to be dropped.
 */
export function refuse(c: Context, error: ApiError, headers: Record<string, string> = {}): Response {
  const unread = c.req.raw.body !== null && !c.req.raw.bodyUsed;
  return problem(c, error, unread ? { ...headers, Connection: 'close' } : headers);
}

export const badRequest = (detail: string, errors?: FieldError[]) =>
  new ApiError(400, 'Bad Request', detail, errors, 'bad-request');
export const notFound = (detail: string) => new ApiError(404, 'Not Found', detail, undefined, 'not-found');
export const conflict = (detail: string) => new ApiError(409, 'Conflict', detail, undefined, 'conflict');
export const unavailable = (detail: string) =>
  new ApiError(503, 'Service Unavailable', detail, undefined, 'unavailable');

/** Field errors from zod issues, so a client learns which field is wrong and why. */
export function fieldErrors(
  location: string,
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string; code?: string; keys?: string[] }>,
): FieldError[] {
  return issues.flatMap((issue) => {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      return issue.keys.map((key) => ({
        in: location,
        field: base ? `${base}.${key}` : key,
        message: 'unknown field',
      }));
    }
    return [{ in: location, field: base || '(root)', message: issue.message }];
  });
}

/** The 400 for a request that fails its schema: the first bad field in the detail, all of them in `errors`. */
export function validationError(location: string, issues: Parameters<typeof fieldErrors>[1]): ApiError {
  const errors = fieldErrors(location, issues);
  const first = errors[0];
  return new ApiError(
    400,
    'Bad Request',
    first ? `invalid ${location} field '${first.field}': ${first.message}` : `invalid ${location}`,
    errors,
    'validation-failed',
  );
}
