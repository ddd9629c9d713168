import { OpenAPIHono, type RouteConfig, type RouteHandler } from '@hono/zod-openapi';
import { validationError } from './problem.ts';

export type AppEnv = { Variables: { requestId: string } };

/** A handler typed by its route definition: its parameters, body and answers are the route's. */
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;

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
        throw validationError(TARGET_LOCATION[result.target] ?? result.target, result.error.issues as never);
      }
    },
  });
}
