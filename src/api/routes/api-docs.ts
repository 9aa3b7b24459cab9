/**
 * The API reference at /docs: the OpenAPI document of /openapi.json rendered by Swagger UI
 * (@fastify/swagger-ui, which serves its bundled assets itself). Public like /openapi.json: it
 * shows the shapes of the API, never data. Its own CSP: Swagger UI loads only same-origin
 * scripts (no inline ones), so nothing it renders from the document could run a script; its
 * components insert <style> elements, so inline styles are allowed (they cannot run code).
 */
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export const DOCS_PREFIX = '/docs';

const DOCS_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export function apiDocsRoutes(app: FastifyInstance): void {
  void app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    staticCSP: DOCS_CSP,
    // "Try it out" sends requests from this page: a token pasted under Authorize stays in the tab.
    uiConfig: { docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 1, displayRequestDuration: true, tryItOutEnabled: false, persistAuthorization: false },
    theme: { title: 'syncdex API reference' },
  });
}
