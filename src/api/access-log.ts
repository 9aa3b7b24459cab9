/**
 * The API's access log: one line per answered request, at info, when its answer has gone out.
 * Fastify's own request logging writes two (one on arrival, one on completion) with the whole
 * request serialized in the first: measured, about 40–80 µs of the API's CPU on a one-hit search
 * (bench/README.md, session 48), and twice the log volume, for nothing the one line lacks.
 * A server fault still gets its own error line (error-mapper.ts).
 */
import type { FastifyInstance } from 'fastify';

/** Logs one line per answered request; the instance sets `disableRequestLogging`, or fastify's two lines come as well. */
export function accessLog(app: FastifyInstance): void {
  app.addHook('onResponse', (req, reply, done) => {
    // The path only: a query string may carry what a caller should not see logged.
    req.log.info({ method: req.method, path: req.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 }, 'request');
    done();
  });
}
