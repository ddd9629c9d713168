import { OpenAPIHono } from '@hono/zod-openapi';
import { ApiError, fieldErrors } from './problem.ts';

export type AppEnv = { Variables: { requestId: string } };

const TARGET_LOCATION: Record<string, string> = {
  json: 'body',
  query: 'query',
  param: 'path',
  header: 'header',
  form: 'body',
  cookie: 'cookie',
};

/** A router whose request validation failures become problem+json 400s naming the fields. */
export function createRouter(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result) => {
      if (!result.success) {
        const location = TARGET_LOCATION[result.target] ?? result.target;
        const errors = fieldErrors(location, result.error.issues as never);
        const first = errors[0];
        throw new ApiError(
          400,
          'Bad Request',
          first ? `invalid ${location} field '${first.field}': ${first.message}` : `invalid ${location}`,
          errors,
          'validation-failed',
        );
      }
    },
  });
}
