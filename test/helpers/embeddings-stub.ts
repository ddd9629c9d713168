import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the stub answers `POST /v1/embeddings`; changeable while it runs. */
export type EmbeddingsStubMode = { kind: 'status'; status: number } | { kind: 'hang' };

/**
 * A local OpenAI-compatible embeddings endpoint that fails on purpose: an HTTP error status, or a request
 * it accepts and never answers. It counts the requests, so a test can tell the service really tried it.
 */
export async function startEmbeddingsStub(mode: EmbeddingsStubMode) {
  const state = { mode, requests: 0 };
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.requests++;
      if (state.mode.kind === 'hang') {
        hanging.add(res); // never answered: the client's deadline must end it
        return;
      }
      res.writeHead(state.mode.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'scripted failure', type: 'server_error' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    state,
    close: () =>
      new Promise<void>((resolve) => {
        hanging.clear();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
