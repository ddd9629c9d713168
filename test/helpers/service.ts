import { loadConfig } from '../../src/config.ts';
import { startService, type Service, type StartOptions } from '../../src/service.ts';
import { createTestDatabaseLocation, type Fixture, type TestDatabaseLocation } from './database.ts';

export interface TestService extends Service {
  url: string;
  location: TestDatabaseLocation;
  stop(): Promise<void>;
}

/** The whole service on a real socket (port 0), on a fresh database of the current mode. */
export async function startTestService(
  env: Record<string, string> = {},
  options: StartOptions & { fixture?: Fixture } = {},
): Promise<TestService> {
  const location = await createTestDatabaseLocation(options.fixture);
  const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent', SEED: 'none', ...location.env, ...env });
  const service = await startService(config, options);
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
