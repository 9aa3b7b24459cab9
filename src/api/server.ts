/** The HTTP API: one fastify app, auth on every non-public route, one error mapper. */
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Deps } from '../app/deps.js';
import { SEARCH_LIMITS } from '../search/dsl/ast.js';
import { authenticate, PUBLIC_PATHS } from './auth.js';
import { handleError } from './error-mapper.js';
import { connectorRoutes } from './routes/connectors.js';
import { healthRoutes } from './routes/health.js';

/** Builds the app (not listening); tests use `app.inject` or `listen` on port 0. */
export function buildApi(deps: Deps): FastifyInstance {
  const app = Fastify({
    loggerInstance: deps.logger.child({ component: 'api' }) as FastifyBaseLogger,
    bodyLimit: SEARCH_LIMITS.maxBodyBytes,
    trustProxy: false,
  });
  app.decorateRequest('principal', null);
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((req, reply) => void reply.status(404).send({ error: { code: 'not_found', message: `no route ${req.method} ${req.url.split('?')[0]}` } }));
  app.addHook('onRequest', async (req) => {
    const path = req.url.split('?')[0] ?? '';
    if (PUBLIC_PATHS.has(path)) return;
    req.principal = await authenticate(deps.db, req);
  });
  healthRoutes(app, deps);
  connectorRoutes(app, deps);
  return app;
}
