/** A body limit on every request with a body (413), chosen by the route's declared `bodyLimit`. */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { isPlaceStream } from '../../ingest/place-stream.ts';
import type { AppEnv } from '../openapi-app.ts';
import { ApiError, problem } from '../problem.ts';
import { policyOf } from '../route-policy.ts';

export interface BodyLimitOptions {
  /** Largest body of any request but an import. */
  bodyLimitBytes: number;
  /** Largest body of the import routes. */
  importBodyLimitBytes: number;
}

export function bodyLimits(options: BodyLimitOptions): MiddlewareHandler<AppEnv> {
  // The rest of a refused body is not read: the connection closes after the answer.
  const limiter = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: (c) =>
        problem(
          c,
          new ApiError(413, 'Content Too Large', `the body exceeds ${maxSize} bytes`, [
            { in: 'body', field: '(root)', message: `at most ${maxSize} bytes` },
          ]),
          { Connection: 'close' },
        ),
    });
  const general = limiter(options.bodyLimitBytes);
  const imports = limiter(options.importBodyLimitBytes);
  return (c, next) => {
    const kind = policyOf(c.req.method, c.req.path).bodyLimit;
    if (kind === 'default') return general(c, next);
    // A place stream is read line by line and may be any size (the route bounds each line).
    if (kind === 'stream' && isPlaceStream(c.req.header('content-type'))) return next();
    return imports(c, next);
  };
}
