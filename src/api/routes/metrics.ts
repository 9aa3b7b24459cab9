/** GET /metrics: Prometheus text exposition of the app's registry. */
import type { FastifyInstance } from 'fastify';
import type { ApiMetrics } from '../metrics.js';
import { publicSchemas } from '../schemas.js';

/**
 * Renders the registry at most once per `maxAgeMs`, and never twice at once. /metrics needs no
 * token (scrapers rarely carry one) and each render queries sync_runs and the queues, so a burst
 * of requests must not become a burst of database work. Scrapers poll every 15 s or more.
 */
export function cachedRender(render: () => Promise<string>, maxAgeMs: number, now: () => number = Date.now): () => Promise<string> {
  let last: { body: string; at: number } | null = null;
  let inFlight: Promise<string> | null = null;
  return () => {
    if (last !== null && now() - last.at < maxAgeMs) return Promise.resolve(last.body);
    inFlight ??= render()
      .then((body) => {
        last = { body, at: now() };
        return body;
      })
      .finally(() => {
        inFlight = null;
      });
    return inFlight;
  };
}

export function metricsRoutes(app: FastifyInstance, metrics: ApiMetrics, maxAgeMs = 2_000): void {
  const render = cachedRender(() => metrics.registry.metrics(), maxAgeMs);
  app.get('/metrics', { schema: publicSchemas.metrics }, async (_req, reply) => reply.type(metrics.registry.contentType).send(await render()));
}
