import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

describe('configuration', () => {
  it('has working defaults for a fresh local start', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', PGLITE_DATA_DIR: './.data/pglite', SEED: 'auto' });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/db' }, 'DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ LLM_BASE_URL: 'not a url' }, 'LLM_BASE_URL'],
  ])('rejects %o naming the variable in one line', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as Error).message).toContain(`${variable}=`);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('reads DATABASE_READ_URLS as a list of postgres URLs, only in server mode', () => {
    const server = { DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db' };
    expect(loadConfig(server).DATABASE_READ_URLS).toEqual([]);
    expect(loadConfig({ ...server, DATABASE_READ_URLS: ' postgres://u:p@r1:5432/db , postgresql://u:p@r2/db ' }).DATABASE_READ_URLS).toEqual([
      'postgres://u:p@r1:5432/db',
      'postgresql://u:p@r2/db',
    ]);
    expect(loadConfig({ ...server, DATABASE_READ_URLS: 'postgres://u:p@r1/db' }).DATABASE_READ_RETRY_MS).toBe(5000);
    for (const [value, message] of [
      ['postgres://u:p@r1/db,', 'entry 2 is empty'],
      ['postgres://u:p@r1/db,http://r2/db', 'entry 2 is not a postgres:// URL'],
      ['postgres://u:p@r1/db,postgres://u:p@r1/db', 'entry 2 repeats an earlier one'],
    ] as const) {
      expect(() => loadConfig({ ...server, DATABASE_READ_URLS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ ...server, DATABASE_READ_URLS: value })).toThrow(message);
      // The passwords in the URLs are not repeated in the message.
      expect(() => loadConfig({ ...server, DATABASE_READ_URLS: value })).toThrow(/u:\*\*\*@r1/);
    }
    // Embedded mode has no replicas: a clear refusal, not a silently ignored variable.
    expect(() => loadConfig({ DATABASE_READ_URLS: 'postgres://u:p@r1/db' })).toThrow(/DATABASE_READ_URLS needs DATABASE_URL/);
  });

  it('requires the embeddings endpoint and model together', () => {
    expect(() => loadConfig({ EMBEDDINGS_BASE_URL: 'http://127.0.0.1:9/v1' })).toThrow(/EMBEDDINGS_MODEL/);
  });
});
