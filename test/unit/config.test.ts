import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { AppError } from '../../src/errors.js';

describe('config', () => {
  it('applies defaults and picks backends from what is configured', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 8080, searchBackend: 'postgres', queueBackend: 'postgres', logLevel: 'info' });
    const r = loadConfig({ REDIS_URL: 'redis://localhost:6379', OPENSEARCH_URL: 'http://localhost:9200' });
    expect(r).toMatchObject({ queueBackend: 'redis', searchBackend: 'opensearch', queuePrefix: 'bull' });
  });

  it('takes a BullMQ key prefix of plain characters, so deployments can share one Redis', () => {
    expect(loadConfig({ QUEUE_PREFIX: 'acme-prod' }).queuePrefix).toBe('acme-prod');
    expect(() => loadConfig({ QUEUE_PREFIX: 'a:b' })).toThrow(/QUEUE_PREFIX/);
  });

  it('prepares the auth lookups unless told not to (poolers that cannot keep prepared statements)', () => {
    expect(loadConfig({}).preparedStatements).toBe(true);
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'false' }).preparedStatements).toBe(false);
    expect(() => loadConfig({ DATABASE_PREPARED_STATEMENTS: 'no' })).toThrow(/DATABASE_PREPARED_STATEMENTS/);
  });

  it('lists every problem at once, naming each variable', () => {
    let err: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'not a url', LOG_LEVEL: 'loud', SEARCH_BACKEND: 'opensearch' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    const msg = (err as AppError).message;
    for (const name of ['PORT', 'DATABASE_URL', 'LOG_LEVEL', 'OPENSEARCH_URL']) expect(msg).toContain(name);
    expect((err as AppError).code).toBe('config_invalid');
  });

  it('reads PORT as digits from 1 to 65535: whitespace or 0 is not a silent random port', () => {
    expect(loadConfig({ PORT: ' 9000 ' }).port).toBe(9000);
    // Empty means unset (compose passes empty variables through): the default.
    expect(loadConfig({ PORT: '' }).port).toBe(8080);
    for (const bad of [' ', '0', '65536', '80.5', '0x50']) expect(() => loadConfig({ PORT: bad }), JSON.stringify(bad)).toThrow(/PORT/);
  });

  it('refuses a runtime URL carrying user:password (it would be echoed into run errors)', () => {
    expect(() => loadConfig({ CONNECTOR_RUNTIME_URL: 'https://user:pw@runtime.example.com' })).toThrow(/CONNECTOR_RUNTIME_URL[\s\S]*CONNECTOR_RUNTIME_TOKEN/);
    expect(loadConfig({ CONNECTOR_RUNTIME_URL: 'https://runtime.example.com/a@b' }).runtimeUrl).toBe('https://runtime.example.com/a@b');
  });

  it('sizes the main Postgres pool for the worker unless told: three connections a job, 10 to 40', () => {
    expect(loadConfig({}).databasePoolMax).toBe(16);
    expect(loadConfig({ WORKER_CONCURRENCY: '1' }).databasePoolMax).toBe(10);
    expect(loadConfig({ WORKER_CONCURRENCY: '64' }).databasePoolMax).toBe(40);
    expect(loadConfig({ WORKER_CONCURRENCY: '64', DATABASE_POOL_MAX: '120' }).databasePoolMax).toBe(120);
    for (const bad of ['1', '1001', 'many']) expect(() => loadConfig({ DATABASE_POOL_MAX: bad }), bad).toThrow(/DATABASE_POOL_MAX/);
  });

  it('requires secrets in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/CREDENTIALS_KEY[\s\S]*CURSOR_SECRET|CURSOR_SECRET[\s\S]*CREDENTIALS_KEY/);
  });
});
