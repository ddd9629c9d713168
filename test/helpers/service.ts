import { loadConfig } from '../../src/config.ts';
import { startService, type Service, type StartOptions } from '../../src/service.ts';
import { createTestDatabaseLocation, type Fixture, type TestDatabaseLocation } from './database.ts';

export interface TestService extends Service {
  url: string;
  location: TestDatabaseLocation;
  stop(): Promise<void>;
}

type TestEnv = Record<string, string>;

/**
 * The whole service on a real socket (port 0), on a fresh database of the current mode. `env` may be a function
 * of the new database's location (e.g. replica URLs naming the same database).
 */
export async function startTestService(
  env: TestEnv | ((location: TestDatabaseLocation) => TestEnv | Promise<TestEnv>) = {},
  options: StartOptions & { fixture?: Fixture } = {},
): Promise<TestService> {
  const location = await createTestDatabaseLocation(options.fixture);
  let service: Service;
  try {
    const extra = typeof env === 'function' ? await env(location) : env;
    const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent', SEED: 'none', ...location.env, ...extra });
    service = await startService(config, options);
  } catch (error) {
    await location.drop();
    throw error;
  }
  return {
    ...service,
    url: `http://127.0.0.1:${service.port}`,
    location,
    stop: async () => {
      await service.shutdown();
      await location.drop();
    },
  };
}

/** POST /v1/ask with the offline planner; the response body, after checking the status is 200. */
export async function askOffline<T>(service: TestService, question: string, k: number): Promise<T> {
  const res = await fetch(`${service.url}/v1/ask`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ question, k, planner: 'offline' }),
  });
  if (res.status !== 200) throw new Error(`POST /v1/ask answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}
