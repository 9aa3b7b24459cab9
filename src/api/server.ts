/** The HTTP API: one fastify app, auth on every non-public route, one error mapper. */
import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Deps } from '../app/deps.js';
import { AppError } from '../errors.js';
import { SEARCH_LIMITS } from '../search/dsl/ast.js';
import { isConnectorId } from '../store/connectors-repo.js';
import { AccessLog } from './access-log.js';
import { sessionPrincipal } from './admin-session.js';
import { accessOf, authenticate, authenticateNaming, requireAdmin } from './auth.js';
import { handleError } from './error-mapper.js';
import { serializeReply } from './json-text.js';
import { rejectUnstorable } from './storable-text.js';
import { createApiMetrics } from './metrics.js';
import { adminConnectorRoutes } from './routes/admin-connectors.js';
import { adminConsoleRoutes } from './routes/admin-console.js';
import { adminRunRoutes } from './routes/admin-runs.js';
import { adminSessionRoutes } from './routes/admin-session.js';
import { apiDocsRoutes } from './routes/api-docs.js';
import { connectorRoutes } from './routes/connectors.js';
import { dashboardRoutes } from './routes/dashboard.js';
import { healthRoutes } from './routes/health.js';
import { metricsRoutes } from './routes/metrics.js';
import { queuesBoard } from './routes/queues-board.js';
import { publicSchemas, sharedSchemas } from './schemas.js';

/** The tenant route whose every call reads a connector of the caller's organization: its hot path. */
const EXECUTE = '/api/v1/integrations/connectors/:id/execute';

/** The connector id a tenant execute request names, when it can be one (a uuid). */
function namedConnector(req: FastifyRequest): string | null {
  if (req.routeOptions.url !== EXECUTE) return null;
  const id = (req.params as { id?: unknown }).id;
  return typeof id === 'string' && isConnectorId(id) ? id : null;
}

/**
 * The onRequest hook: who is calling (401 without a valid credential where one is needed). It
 * answers auth failures itself, through the one error mapper, because plugins with their own
 * error handler (bull-board) would otherwise turn them into 500s.
 */
function authHook(deps: Deps) {
  const resolve = async (req: FastifyRequest): Promise<void> => {
    // The route the router matched, not the raw URL: the router percent-decodes the path, so
    // `/admin/%71ueues/...` reaches bull-board while its raw URL looks like any Bearer route.
    const access = accessOf(req.routeOptions.url ?? req.url.split('?')[0] ?? '');
    if (access === 'public') return;
    const named = namedConnector(req);
    if (access === 'bearer' && named !== null) {
      req.principal = await authenticateNaming(deps.db, req, named);
    } else if (access === 'bearer' || req.headers.authorization !== undefined) {
      req.principal = await authenticate(deps.db, req);
    } else {
      req.principal = await sessionPrincipal(deps.db, deps.cursorSecret, req);
      if (req.principal === null) throw new AppError('unauthorized', 'log in at /admin first: the queues board needs the admin session the dashboard sets');
    }
    if (access === 'session') requireAdmin(req);
  };
  return async (req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    try {
      await resolve(req);
      return undefined;
    } catch (e) {
      handleError(e, req, reply);
      return reply;
    }
  };
}

function openapiOptions(deps: Deps) {
  return {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'syncdex', version: '0.1.0', description: `Sync-and-index service behind the hosted search action. Search backend: ${deps.backend.kind}; queue backend: ${deps.queues.kind}.` },
      components: { securitySchemes: { bearer: { type: 'http' as const, scheme: 'bearer', description: 'API token from `syncdex tokens create`' } } },
      tags: [{ name: 'connectors' }, { name: 'admin', description: 'needs an admin token' }, { name: 'ops', description: 'no token needed' }],
    },
    // Shared schemas keep their $id as their component name (`#/components/schemas/error`).
    refResolver: { buildLocalReference: (json: { $id?: unknown }, _base: unknown, _fragment: unknown, i: number) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  };
}

/** Builds the app (not listening); tests use `app.inject` or `listen` on port 0. */
export function buildApi(deps: Deps): FastifyInstance {
  const app = Fastify({
    loggerInstance: deps.logger.child({ component: 'api' }) as FastifyBaseLogger,
    bodyLimit: SEARCH_LIMITS.maxBodyBytes,
    trustProxy: deps.config.trustProxy,
    // One access line per request instead of fastify's two.
    logController: new AccessLog(),
    // Malformed URLs and over-long path parameters answer in our one error shape too.
    frameworkErrors: (e, req, reply) => handleError(e, req, reply),
  });
  const metrics = createApiMetrics(deps);
  app.decorateRequest('principal', null);
  app.decorateRequest('namedConnector', null);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((req, reply) => void reply.status(404).send({ error: { code: 'not_found', message: `no route ${req.method} ${req.url.split('?')[0]}` } }));
  // Route schemas document the API (/openapi.json); our parsers validate and the error mapper
  // words every 400, and responses are sent as built, never reshaped by a schema.
  app.setValidatorCompiler(() => (value) => ({ value }));
  app.setSerializerCompiler(() => serializeReply);
  app.setReplySerializer(serializeReply);
  for (const s of sharedSchemas) app.addSchema(s);
  app.addHook('onRequest', authHook(deps));
  app.addHook('preValidation', async (req) => rejectUnstorable(req.body, req.url));
  void app.register(swagger, openapiOptions(deps));
  void app.register(async (scope) => {
    healthRoutes(scope, deps);
    metricsRoutes(scope, metrics);
    scope.get('/openapi.json', { schema: publicSchemas.openapi }, async () => app.swagger());
    apiDocsRoutes(scope);
    connectorRoutes(scope, deps, metrics);
    dashboardRoutes(scope);
    queuesBoard(scope, deps);
    void scope.register(async (admin) => {
      admin.addHook('onRequest', async (req) => void requireAdmin(req));
      adminSessionRoutes(admin, deps);
      adminRunRoutes(admin, deps);
      adminConnectorRoutes(admin, deps);
      adminConsoleRoutes(admin, deps, metrics);
    });
  });
  return app;
}
