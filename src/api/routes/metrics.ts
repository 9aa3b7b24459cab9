/** GET /metrics: Prometheus text exposition of the app's registry. */
import type { FastifyInstance } from 'fastify';
import type { ApiMetrics } from '../metrics.js';
import { publicSchemas } from '../schemas.js';

export function metricsRoutes(app: FastifyInstance, metrics: ApiMetrics): void {
  app.get('/metrics', { schema: publicSchemas.metrics }, async (_req, reply) => {
    const body = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(body);
  });
}
