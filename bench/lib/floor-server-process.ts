/**
 * The HTTP floor's server (http-floor.ts) in a process of its own, as the API under measurement
 * runs in one (api-process.ts): neither pays for the bench process's heap. Told what to serve
 * over IPC; answers with its port.
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { EXECUTE_STATEMENTS, replay, replayable, replayPool, type FloorSpec } from '../http-floor.js';

function serve(spec: FloorSpec): Promise<number> {
  const pool = replayPool(spec.databaseUrl, 4);
  const named = replayable(spec.statements);
  const app = Fastify();
  app.post('/floor', async () => {
    if (named.length === 0) for (let i = 0; i < EXECUTE_STATEMENTS; i++) await pool.query('select 1');
    else {
      await pool.query('select 1');
      await replay(pool, named);
    }
    return spec.answer;
  });
  process.once('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
  return app.listen({ port: 0, host: '127.0.0.1' }).then(() => (app.server.address() as AddressInfo).port);
}

process.once('message', (spec: FloorSpec) => {
  serve(spec).then(
    (port) => process.send?.({ port }),
    (e: unknown) => process.send?.({ error: e instanceof Error ? e.message : String(e) }),
  );
});
