/**
 * Admin API over connectors: list with entity status, trigger, pause/resume, resync, reset,
 * and reindex of a (connector type, entity). Actions call src/app/operations.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../app/deps.js';
import { pauseConnector, resetEntity, resumeConnector, resyncEntity, triggerSync } from '../../app/operations.js';
import { reindexEntity } from '../../app/reindex.js';
import { AppError } from '../../errors.js';
import { entityStatesOf } from '../../store/admin-queries.js';
import { findConnector, listConnectors, type Connector } from '../../store/connectors-repo.js';
import { encodeConnectorsCursor, objectOf, onlyKeys, optEnum, optInt, optKey, parseConnectorsPage, reqKey } from '../params.js';
import { adminSchemas } from '../schemas.js';
import { adminConnectorView, runSummary } from '../views.js';

type IdParams = { Params: { id: string } };
type EntityParams = { Params: { id: string; entity: string } };

export async function connectorOr404(deps: Deps, id: string): Promise<Connector> {
  const c = await findConnector(deps.db, id);
  if (c === null) throw new AppError('not_found', `connector ${JSON.stringify(id.slice(0, 80))} not found`, { path: 'connector_id' });
  return c;
}

async function view(deps: Deps, c: Connector) {
  const states = await entityStatesOf(deps.db, [c.id]);
  return adminConnectorView(c, states.get(c.id) ?? []);
}

/** An entity named in a path: a catalog key, else a 400 naming it. */
function entityParam(value: string): string {
  return reqKey({ entity: value }, 'entity');
}

function connectorReadRoutes(app: FastifyInstance, deps: Deps): void {
  app.get('/admin/api/connectors', { schema: adminSchemas.listConnectors }, async (req) => {
    const { connectors, next } = await listConnectors(deps.db, parseConnectorsPage(objectOf(req.query, 'query'), 200));
    const states = await entityStatesOf(deps.db, connectors.map((c) => c.id));
    return { connectors: connectors.map((c) => adminConnectorView(c, states.get(c.id) ?? [])), next_cursor: next === null ? null : encodeConnectorsCursor(next) };
  });

  app.get<IdParams>('/admin/api/connectors/:id', { schema: adminSchemas.getConnector }, async (req) => view(deps, await connectorOr404(deps, req.params.id)));
}

function connectorActionRoutes(app: FastifyInstance, deps: Deps): void {
  app.post<IdParams>('/admin/api/connectors/:id/sync', { schema: adminSchemas.triggerSync }, async (req, reply) => {
    const body = objectOf(req.body);
    onlyKeys(body, ['entity', 'mode']);
    const entity = optKey(body, 'entity');
    const mode = optEnum(body, 'mode', ['full', 'incremental', 'auto'] as const);
    const c = await connectorOr404(deps, req.params.id);
    const runs = await triggerSync(deps, c.id, { ...(entity === undefined ? {} : { entity }), ...(mode === undefined ? {} : { mode }) });
    req.log.info({ connector: c.id, entity: entity ?? '*', runIds: runs.map((r) => r.id) }, 'sync triggered');
    return reply.status(202).send({ runs: runs.map((r) => runSummary(r)) });
  });

  app.post<IdParams>('/admin/api/connectors/:id/pause', { schema: adminSchemas.pause }, async (req) => {
    onlyKeys(objectOf(req.body), []);
    const c = await connectorOr404(deps, req.params.id);
    await pauseConnector(deps, c.id);
    req.log.info({ connector: c.id }, 'connector paused');
    return view(deps, await connectorOr404(deps, c.id));
  });

  app.post<IdParams>('/admin/api/connectors/:id/resume', { schema: adminSchemas.resume }, async (req) => {
    onlyKeys(objectOf(req.body), []);
    const c = await connectorOr404(deps, req.params.id);
    await resumeConnector(deps, c.id);
    req.log.info({ connector: c.id }, 'connector resumed');
    return view(deps, await connectorOr404(deps, c.id));
  });

  app.post<EntityParams>('/admin/api/connectors/:id/entities/:entity/resync', { schema: adminSchemas.resync }, async (req, reply) => {
    onlyKeys(objectOf(req.body), []);
    const entity = entityParam(req.params.entity);
    const c = await connectorOr404(deps, req.params.id);
    const run = await resyncEntity(deps, c.id, entity);
    req.log.info({ connector: c.id, entity, runId: run.id }, 'entity resync started');
    return reply.status(202).send({ run: runSummary(run) });
  });

  app.post<EntityParams>('/admin/api/connectors/:id/entities/:entity/reset', { schema: adminSchemas.reset }, async (req, reply) => {
    onlyKeys(objectOf(req.body), []);
    const entity = entityParam(req.params.entity);
    const c = await connectorOr404(deps, req.params.id);
    const { tombstoned, run } = await resetEntity(deps, c.id, entity);
    req.log.info({ connector: c.id, entity, runId: run.id, tombstoned }, 'entity reset');
    return reply.status(202).send({ tombstoned, run: runSummary(run) });
  });
}

export function adminConnectorRoutes(app: FastifyInstance, deps: Deps): void {
  connectorReadRoutes(app, deps);
  connectorActionRoutes(app, deps);
  app.post('/admin/api/reindex', { schema: adminSchemas.reindex }, async (req) => {
    const body = objectOf(req.body);
    onlyKeys(body, ['connector_type', 'entity']);
    const result = await reindexEntity(deps, reqKey(body, 'connector_type'), reqKey(body, 'entity'));
    req.log.info({ connectorType: result.connector_type, entity: result.entity, backend: result.backend }, 'reindexed');
    return result;
  });
}
