/**
 * Starts the services integration tests run against (DESIGN §9): the URLs when set, else
 * testcontainers when Docker answers, else private local instances, stopped at the end.
 */
import type { TestProject } from 'vitest/node';
import { providePostgres, provideRedis, type ProvidedService } from '../../src/services/local-services.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string | null;
    redisMissing: string | null;
  }
}

let services: ProvidedService[] = [];

export async function setup(project: TestProject): Promise<void> {
  const pg = await providePostgres(process.env.DATABASE_URL, { settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '500' } });
  services.push(pg);
  project.provide('databaseUrl', pg.url);
  const redis = await provideRedis(process.env.REDIS_URL);
  if (redis.ok) {
    services.push(redis.service);
    project.provide('redisUrl', redis.service.url);
    project.provide('redisMissing', null);
  } else {
    project.provide('redisUrl', null);
    project.provide('redisMissing', redis.reason);
    process.stderr.write(`\n⚠ SKIPPING Redis tests: ${redis.reason}\n\n`);
  }
  process.stderr.write(`integration services: postgres (${pg.source}), redis (${redis.ok ? redis.service.source : 'missing'})\n`);
}

export async function teardown(): Promise<void> {
  for (const s of services.reverse()) await s.stop();
  services = [];
}
