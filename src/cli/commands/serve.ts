/** Long-running commands: api, worker, sandbox, migrate. */
import { buildDeps } from '../../app/deps.js';
import { migrateAll } from '../../app/migrate.js';
import { buildApi } from '../../api/server.js';
import { loadConfig } from '../../config.js';
import { createLogger } from '../../logger.js';
import { startSandboxServer } from '../../sandbox/server.js';
import { Sandbox } from '../../sandbox/sandbox.js';
import { createDb } from '../../store/db.js';
import { startWorker } from '../../worker/start-worker.js';
import { int, parse } from '../args.js';
import { applyWorkerV8Flags } from '../node-flags.js';
import { AppError } from '../../errors.js';

/** Resolves on SIGTERM/SIGINT. */
export function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    for (const sig of ['SIGTERM', 'SIGINT'] as const) process.once(sig, () => resolve(sig));
  });
}

export async function migrateCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv, {});
  const config = loadConfig();
  if (config.databaseUrl === undefined) throw new AppError('config_invalid', 'DATABASE_URL is required', { path: 'DATABASE_URL' });
  const { db } = createDb(config.databaseUrl, 2);
  try {
    const applied = await migrateAll(db, { kind: config.queueBackend, url: config.queueBackend === 'redis' ? (config.redisUrl ?? '') : config.databaseUrl });
    process.stdout.write(values.json === true ? `${JSON.stringify({ applied })}\n` : `migrations applied: ${applied.length === 0 ? 'none (up to date)' : applied.join(', ')}\n`);
  } finally {
    await db.destroy();
  }
  return 0;
}

export async function apiCommand(argv: string[]): Promise<number> {
  parse(argv, {});
  const deps = buildDeps(loadConfig());
  const app = buildApi(deps);
  await app.listen({ port: deps.config.port, host: '0.0.0.0' });
  const sig = await untilSignal();
  deps.logger.info({ signal: sig }, 'api shutting down');
  await app.close();
  await deps.close();
  return 0;
}

export async function workerCommand(argv: string[]): Promise<number> {
  applyWorkerV8Flags();
  const p = parse(argv, { concurrency: { type: 'string' } });
  const deps = buildDeps(loadConfig());
  const concurrency = int(p, 'concurrency', { max: 256 });
  const w = startWorker(deps, concurrency === undefined ? {} : { concurrency });
  deps.logger.info({ queue: deps.queues.kind }, 'worker started');
  const sig = await untilSignal();
  deps.logger.info({ signal: sig }, 'worker shutting down: finishing current pages');
  await w.close();
  await deps.close();
  return 0;
}

export async function sandboxCommand(argv: string[]): Promise<number> {
  const p = parse(argv, { size: { type: 'string' }, seed: { type: 'string' }, port: { type: 'string' } });
  const config = loadConfig();
  const seed = int(p, 'seed', { min: 0 });
  const size = int(p, 'size');
  const sandbox = new Sandbox({ ...(seed === undefined ? {} : { seed }), ...(size === undefined ? {} : { defaultSize: size }) });
  const server = await startSandboxServer({ port: int(p, 'port', { max: 65535 }) ?? config.sandboxPort, host: '0.0.0.0', sandbox, ...(config.runtimeToken === undefined ? {} : { token: config.runtimeToken }) });
  createLogger(config.logLevel).info({ url: server.url }, 'sandbox runtime listening');
  await untilSignal();
  await server.close();
  return 0;
}
