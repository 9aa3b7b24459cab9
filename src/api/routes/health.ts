/** Probes: liveness (process up) and readiness (store, queue and index reachable). */
import { sql } from 'kysely';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Deps } from '../../app/deps.js';
import { errorLog } from '../../errors.js';
import { within } from '../../within.js';
import { publicSchemas } from '../schemas.js';

// The probe is public: it says which dependency is down; the reason (hosts, users) goes to the log.
async function check(name: string, fn: () => Promise<unknown>, log: FastifyBaseLogger): Promise<[string, string]> {
  try {
    await within(fn(), 2000, () => new Error('timeout after 2 s'));
    return [name, 'ok'];
  } catch (e) {
    log.warn({ check: name, err: errorLog(e) }, 'readiness check failed');
    return [name, 'error'];
  }
}

export function healthRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/healthz', { schema: publicSchemas.healthz }, async () => ({ ok: true }));
  app.get('/readyz', { schema: publicSchemas.readyz }, async (req, reply) => {
    const checks = await Promise.all([
      check('store', () => sql`select 1`.execute(deps.db), req.log),
      check('queue', () => deps.syncQueue.getJobCounts('waiting'), req.log),
      check('index', () => deps.backend.ping(deps.db), req.log),
    ]);
    const ok = checks.every(([, s]) => s === 'ok');
    return reply.status(ok ? 200 : 503).send({ ok, checks: Object.fromEntries(checks) });
  });
}
