import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import { AppError } from '../errors.js';
import type { DB } from './schema.js';

/** Folder of the plain-SQL migrations, resolved from this file so it works from any cwd. */
export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

/** Reads `NNNN_name.sql` files; each runs as one statement batch inside kysely's migration transaction. */
class SqlFileProvider implements MigrationProvider {
  constructor(private readonly dir: string) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const files = (await fs.readdir(this.dir)).filter((f) => /^\d{4}_[a-z0-9_]+\.sql$/.test(f)).sort();
    const out: Record<string, Migration> = {};
    for (const file of files) {
      const text = await fs.readFile(path.join(this.dir, file), 'utf8');
      out[file.replace(/\.sql$/, '')] = { up: async (db) => void (await sql.raw(text).execute(db)) };
    }
    return out;
  }
}

/**
 * Applies pending migrations. Idempotent; kysely's Postgres adapter takes an advisory lock, so
 * two processes starting at once apply each migration exactly once.
 */
/**
 * Refuses a database that is not UTF8. Under SQL_ASCII (what initdb picks in a C/POSIX locale)
 * Postgres counts bytes, not characters, in LIKE's `_`, `length`, `left` and levenshtein, and
 * non-ASCII `like` and `fuzzy` filters silently miss hits.
 */
export async function assertUtf8(db: Kysely<DB>): Promise<void> {
  const { rows } = await sql<{ enc: string; name: string }>`select pg_encoding_to_char(encoding) as enc, datname as name from pg_database where datname = current_database()`.execute(db);
  const enc = rows[0]?.enc ?? 'unknown';
  if (enc !== 'UTF8') {
    throw new AppError('config_invalid', `database ${rows[0]?.name ?? ''} is encoded ${enc}; syncdex needs UTF8 (createdb --encoding=UTF8 --template=template0, or initdb --encoding=UTF8)`);
  }
}

export async function migrateToLatest(db: Kysely<DB>, dir = MIGRATIONS_DIR): Promise<string[]> {
  await assertUtf8(db);
  const migrator = new Migrator({ db, provider: new SqlFileProvider(dir), migrationTableName: 'syncdex_migrations', migrationLockTableName: 'syncdex_migrations_lock' });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new AppError('internal', `migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
