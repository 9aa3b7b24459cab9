/** Public connector routes (overview §4.1): create, read, execute `search`; OAuth initiate is answered as not served here. */
import type { FastifyInstance } from 'fastify';
import { assertReplicated, connectorFor, createConnector, foundConnector, parseCreateConnector, viewConnector } from '../../app/connector-service.js';
import { listConnectors, type Connector } from '../../store/connectors-repo.js';
import type { ApiMetrics } from '../metrics.js';
import { encodeConnectorsCursor, objectOf, parseConnectorsPage } from '../params.js';
import { publicSchemas } from '../schemas.js';
import type { Deps } from '../../app/deps.js';
import { getConnectorDef, getEntityDef } from '../../connectors/catalog/index.js';
import { AppError, isAppError } from '../../errors.js';
import { runSearchJson } from '../../search/search-service.js';
import { JsonText } from '../json-text.js';
import { principalOf } from '../auth.js';

const ACTIONS = new Set(['list', 'get', 'create', 'update', 'delete', 'api_search', 'search', 'download']);

function parseExecute(body: unknown): { entity: string; action: string; params: unknown } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('invalid_request', 'body must be a JSON object', { path: '' });
  const b = body as Record<string, unknown>;
  for (const key of Object.keys(b)) if (!['entity', 'action', 'params'].includes(key)) throw new AppError('invalid_request', `unknown field "${key}"`, { path: key });
  if (typeof b.entity !== 'string' || b.entity === '') throw new AppError('invalid_request', 'entity is required and must be a string', { path: 'entity' });
  if (typeof b.action !== 'string' || b.action === '') throw new AppError('invalid_request', 'action is required and must be a string', { path: 'action' });
  return { entity: b.entity, action: b.action, params: b.params };
}

/** Runs a search and observes its latency (entity already validated: labels stay a closed set); the answer is its JSON text. */
async function timedSearch(deps: Deps, metrics: ApiMetrics, connector: { id: string; connectorType: string }, entity: string, params: unknown): Promise<JsonText> {
  const end = metrics.searchLatency.startTimer({ connector_type: connector.connectorType, entity });
  try {
    const result = new JsonText(await runSearchJson(deps, connector, entity, params));
    end({ outcome: 'ok' });
    return result;
  } catch (e) {
    end({ outcome: isAppError(e) ? e.code : 'internal' });
    throw e;
  }
}

/**
 * The execute action on a connector already resolved for the caller: the tenant route (own
 * organization) and the admin console's route (any organization, admin tokens) both run this.
 */
export async function executeOn(deps: Deps, metrics: ApiMetrics, connector: Connector, body: unknown): Promise<JsonText> {
  const { entity, action, params } = parseExecute(body);
  getEntityDef(getConnectorDef(connector.connectorType), entity);
  if (action !== 'search') {
    const known = ACTIONS.has(action);
    throw new AppError('action_not_supported', known ? `action "${action}" runs on the connector execution service; syncdex serves only "search"` : `unknown action "${action}"; syncdex serves only "search"`, { path: 'action' });
  }
  assertReplicated(connector, entity);
  return timedSearch(deps, metrics, connector, entity, params);
}

export function connectorRoutes(app: FastifyInstance, deps: Deps, metrics: ApiMetrics): void {
  app.get('/api/v1/integrations/connectors', { schema: publicSchemas.listConnectors }, async (req) => {
    const page = parseConnectorsPage(objectOf(req.query, 'query'), 100);
    const principal = principalOf(req);
    // Always the caller's own organization, admin or not: this is the tenant API (admins list all at /admin/api/connectors).
    const { connectors, next } = await listConnectors(deps.db, { organizationId: principal.organizationId, ...page });
    return { connectors: await Promise.all(connectors.map((c) => viewConnector(deps, c))), next_cursor: next === null ? null : encodeConnectorsCursor(next) };
  });

  app.post('/api/v1/integrations/connectors', { schema: publicSchemas.createConnector }, async (req, reply) => {
    const input = parseCreateConnector(req.body);
    const view = await createConnector(deps, principalOf(req), input);
    return reply.status(201).send(view);
  });

  // The consent flow lives where the OAuth apps and their redirect handling do, as the other
  // actions do: a client following the overview gets told so, not a bare "no route".
  app.post('/api/v1/integrations/connectors/oauth/initiate', { schema: publicSchemas.oauthInitiate }, async () => {
    throw new AppError('action_not_supported', 'OAuth initiate runs on the connector execution service; create the connector here with the secret_id it hands back, as server_side_oauth_secret_id', { path: '' });
  });

  app.get<{ Params: { id: string } }>('/api/v1/integrations/connectors/:id', { schema: publicSchemas.getConnector }, async (req) => {
    const connector = await connectorFor(deps, principalOf(req), req.params.id);
    return viewConnector(deps, connector);
  });

  app.post<{ Params: { id: string } }>('/api/v1/integrations/connectors/:id/execute', { schema: publicSchemas.execute }, async (req) => {
    // Authentication read the connector in its round trip (server.ts), unless the id cannot be one.
    const named = req.namedConnector;
    const connector = named === null ? await connectorFor(deps, principalOf(req), req.params.id) : foundConnector(named.connector, req.params.id);
    return executeOn(deps, metrics, connector, req.body);
  });
}
