/** Admin API over runs: list (filters, keyset pages), one run with its replay chain, replay, cancel. */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../app/deps.js';
import { cancelRun, replayRun } from '../../app/operations.js';
import { AppError } from '../../errors.js';
import { findRunRow, replayChain } from '../../store/admin-queries.js';
import { objectOf, onlyKeys, optBool, runIdParam } from '../params.js';
import { runsPage } from '../runs-query.js';
import { adminSchemas } from '../schemas.js';
import { runDetail, runSummary } from '../views.js';

async function runOr404(deps: Deps, id: string) {
  const run = await findRunRow(deps.db, runIdParam(id));
  if (run === null) throw new AppError('not_found', `run ${id} not found`, { path: 'run_id' });
  return run;
}

export function adminRunRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/admin/api/runs', { schema: adminSchemas.listRuns }, async (req) => {
    const { runs, nextCursor } = await runsPage(deps.db, req.query);
    return { runs: runs.map((r) => runSummary(r)), next_cursor: nextCursor };
  });

  app.get<{ Params: { id: string } }>('/admin/api/runs/:id', { schema: adminSchemas.getRun }, async (req) => {
    const run = await runOr404(deps, req.params.id);
    return runDetail(run, await replayChain(deps.db, run.id));
  });

  app.post<{ Params: { id: string } }>('/admin/api/runs/:id/replay', { schema: adminSchemas.replayRun }, async (req, reply) => {
    const body = objectOf(req.body);
    onlyKeys(body, ['from_start']);
    const fromStart = optBool(body, 'from_start') ?? false;
    const original = await runOr404(deps, req.params.id);
    const run = await replayRun(deps, original.id, { fromStart });
    req.log.info({ connector: run.connector_id, entity: run.entity, runId: run.id, replayOf: original.id, fromStart }, 'run replayed');
    return reply.status(202).send({ run: runSummary(run), from_checkpoint: run.checkpoint !== null });
  });

  app.post<{ Params: { id: string } }>('/admin/api/runs/:id/cancel', { schema: adminSchemas.cancelRun }, async (req) => {
    onlyKeys(objectOf(req.body), []);
    const original = await runOr404(deps, req.params.id);
    const run = await cancelRun(deps, original.id);
    req.log.info({ connector: run.connector_id, entity: run.entity, runId: run.id }, 'run cancelled');
    return { run: runSummary(run) };
  });
}
