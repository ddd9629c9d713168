import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The chat request the stub received (what the client sent). */
export interface ChatRequest {
  messages: { role: string; content: string }[];
  [key: string]: unknown;
}

export type StubReply =
  | { kind: 'content'; content: string }
  | { kind: 'status'; status: number }
  | { kind: 'hang' }
  /** The OpenAI refusal shape: no content, a `refusal` text. */
  | { kind: 'refusal'; refusal: string }
  /** A reply computed from the request, e.g. an order of the candidate ids it was sent. */
  | { kind: 'respond'; respond: (request: ChatRequest) => StubReply };

/** A local OpenAI-compatible chat endpoint that answers from a script, one reply per request. */
export async function startLlmStub(script: StubReply[]) {
  const requests: ChatRequest[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const request = JSON.parse(body || '{}') as ChatRequest;
      requests.push(request);
      let reply: StubReply = script.shift() ?? { kind: 'status', status: 500 };
      while (reply.kind === 'respond') reply = reply.respond(request);
      if (reply.kind === 'hang') return; // never answers: the client's timeout must end it
      if (reply.kind === 'status') {
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'scripted failure', type: 'server_error' } }));
        return;
      }
      const message =
        reply.kind === 'refusal' ? { role: 'assistant', content: null, refusal: reply.refusal } : { role: 'assistant', content: reply.content };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'chatcmpl-stub',
          object: 'chat.completion',
          created: 0,
          model: 'stub',
          choices: [{ index: 0, finish_reason: 'stop', message }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    script,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
