/**
 * The dashboard's search console: an entity's searchable fields, and execute for operators.
 * The execute route runs the very handler agents call (`executeOn`: same body, validation,
 * search service, error shapes and latency metric) on a connector of any organization: the
 * admin scope (docs/operator-decisions.md §4). Every such search is logged with the operator's
 * token id and the organization whose data it read; the filter is not logged (it holds values).
 */
import type { FastifyInstance } from 'fastify';
import { replicatedEntities } from '../../app/connector-service.js';
import type { Deps } from '../../app/deps.js';
import { requireAdmin } from '../auth.js';
import type { ApiMetrics } from '../metrics.js';
import { adminSchemas } from '../schemas.js';
import { searchFields } from '../search-fields.js';
import { connectorOr404 } from './admin-connectors.js';
import { executeOn } from './connectors.js';

type IdParams = { Params: { id: string } };

export function adminConsoleRoutes(app: FastifyInstance, deps: Deps, metrics: ApiMetrics): void {
  app.get<IdParams>('/admin/api/connectors/:id/search-fields', { schema: adminSchemas.searchFields }, async (req) => {
    const c = await connectorOr404(deps, req.params.id);
    return { connector_id: c.id, connector_type: c.connectorType, entities: searchFields(c.connectorType, replicatedEntities(c)) };
  });

  app.post<IdParams>('/admin/api/connectors/:id/execute', { schema: adminSchemas.execute }, async (req) => {
    const operator = requireAdmin(req);
    const c = await connectorOr404(deps, req.params.id);
    const entity = (req.body as { entity?: unknown } | null)?.entity;
    req.log.info({ connector: c.id, organization: c.organizationId, operatorTokenId: operator.tokenId, entity: typeof entity === 'string' ? entity.slice(0, 80) : null }, 'operator search');
    return executeOn(deps, metrics, c, req.body);
  });
}
