/** How CLI commands reach the system: the full deps (queues) or just the database. */
import { buildDeps, type Deps } from '../../app/deps.js';
import { loadConfig } from '../../config.js';
import { AppError } from '../../errors.js';
import { createLogger } from '../../logger.js';
import { createDb, type DB } from '../../store/db.js';
import type { Kysely } from 'kysely';

/** Runs `fn` with deps that can enqueue runs; the runtime is only needed by workers. */
export async function withDeps<T>(fn: (deps: Deps) => Promise<T>): Promise<T> {
  const config = loadConfig();
  // Logs go to stderr so `--json` output on stdout stays parseable.
  const deps = buildDeps(config, { withoutRuntime: true, lazySecrets: true, logger: createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel, process.stderr) });
  try {
    return await fn(deps);
  } finally {
    await deps.close();
  }
}

/** Runs `fn` with only a database connection (read-only commands, tokens). */
export async function withDb<T>(fn: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  const url = loadConfig().databaseUrl;
  if (url === undefined) throw new AppError('config_invalid', 'DATABASE_URL is required', { path: 'DATABASE_URL' });
  const { db } = createDb(url, 2);
  try {
    return await fn(db);
  } finally {
    await db.destroy();
  }
}
