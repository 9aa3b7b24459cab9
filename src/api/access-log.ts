/**
 * The API's access log: one line per answered request, at info, once its answer has gone out.
 * Fastify's own request logging writes two (one on arrival, with the request serialized, one on
 * completion): measured, about 40–80 µs of the API's CPU on a one-hit search (bench/README.md,
 * session 48), and twice the log volume, for nothing the one line lacks. Fastify's other lines
 * (its default error log, stream and serializer errors) are left as they are.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Fastify's log controller (its `logController` option), with one access line per request. */
export class AccessLog extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, req: FastifyRequest, reply: FastifyReply): void {
    // The path only: a query string may carry what a caller should not see logged.
    const line = { method: req.method, path: req.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime * 100) / 100 };
    // An error here is the response's own (its stream failed), not a mapped AppError.
    if (error) reply.log.error({ ...line, err: error }, 'request');
    else reply.log.info(line, 'request');
  }
}
