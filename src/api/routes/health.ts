/** Probes: liveness (process up) and readiness (store, queue and index reachable). */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../app/deps.js';
import { publicSchemas } from '../schemas.js';

async function check(name: string, fn: () => Promise<unknown>): Promise<[string, string]> {
  try {
    await Promise.race([fn(), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000))]);
    return [name, 'ok'];
  } catch (e) {
    return [name, `error: ${(e as Error).message}`];
  }
}

export function healthRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/healthz', { schema: publicSchemas.healthz }, async () => ({ ok: true }));
  app.get('/readyz', { schema: publicSchemas.readyz }, async (_req, reply) => {
    const checks = await Promise.all([
      check('store', () => sql`select 1`.execute(deps.db)),
      check('queue', () => deps.syncQueue.getJobCounts('waiting')),
      check('index', () => deps.backend.ping(deps.db)),
    ]);
    const ok = checks.every(([, s]) => s === 'ok');
    return reply.status(ok ? 200 : 503).send({ ok, checks: Object.fromEntries(checks) });
  });
}
