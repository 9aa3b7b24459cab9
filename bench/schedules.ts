/** Scheduling: job schedulers for N connectors on Redis: time to create them, memory they take. */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { provideRedis } from '../src/services/local-services.js';
import type { Connector } from '../src/store/connectors-repo.js';
import { createQueueFactory } from '../src/worker/queue-factory.js';
import { SCHEDULE_QUEUE, upsertSchedule, type ScheduleJob } from '../src/worker/schedules.js';
import { round, type Figure } from './lib/stats.js';

const usedMemory = async (r: Redis): Promise<number> => Number(/used_memory:(\d+)/.exec(await r.info('memory'))?.[1] ?? 0);

function fakeConnector(i: number): Connector {
  const now = new Date();
  return { id: randomUUID(), organizationId: randomUUID(), externalUserId: `u${i}`, connectorType: 'payments', name: `c${i}`, authMethod: 'token', replicationConfig: { schedule: i % 2 === 0 ? '1h' : '*/15 * * * *' }, status: 'active', createdAt: now, updatedAt: now };
}

export async function schedulesBench(n: number, log: (s: string) => void): Promise<Figure[]> {
  const redis = await provideRedis(process.env.REDIS_URL);
  if (!redis.ok) {
    log(`SKIPPING scheduling bench: ${redis.reason}`);
    return [{ group: 'scheduling', name: `${n} connector schedules`, unit: 's', value: Number.NaN, baseline: null, ratio: null, target: 'report', pass: null, note: redis.reason }];
  }
  const client = new Redis(redis.service.url);
  const queue = createQueueFactory({ kind: 'redis', url: redis.service.url }).queue<ScheduleJob>(SCHEDULE_QUEUE);
  try {
    const connectors = Array.from({ length: n }, (_, i) => fakeConnector(i));
    const mem0 = await usedMemory(client);
    const t = performance.now();
    for (let i = 0; i < n; i += 100) await Promise.all(connectors.slice(i, i + 100).map((c) => upsertSchedule(queue, c)));
    const secs = (performance.now() - t) / 1000;
    const t2 = performance.now();
    for (let i = 0; i < n; i += 100) await Promise.all(connectors.slice(i, i + 100).map((c) => upsertSchedule(queue, c)));
    const again = (performance.now() - t2) / 1000;
    const mem = (await usedMemory(client)) - mem0;
    const count = (await queue.getJobSchedulers(0, -1)).length;
    log(`scheduling: ${n} schedulers in ${round(secs)} s (${Math.round(n / secs)}/s), upsert again ${round(again)} s, ${round(mem / 2 ** 20)} MB, ${count} schedulers`);
    return [
      { group: 'scheduling', name: `create ${n} connector schedules`, unit: 's', value: round(secs), baseline: null, ratio: null, target: 'report', pass: null, note: `${Math.round(n / secs)}/s; upserting all again (idempotent) ${round(again)} s, still ${count} schedulers` },
      { group: 'scheduling', name: `Redis memory of ${n} schedules`, unit: 'MB', value: round(mem / 2 ** 20), baseline: null, ratio: null, target: 'report', pass: null, note: `${Math.round(mem / n)} bytes per connector` },
    ];
  } finally {
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queue.close();
    client.disconnect();
    await redis.service.stop();
  }
}
