/**
 * Statements the store runs as named (server-side prepared) statements: parsed and planned once
 * per connection, then only bound and executed. Only for hot statements whose text is fixed and
 * whose plan does not depend on their values (a unique-key lookup): a search's plan does, and its
 * text varies with the filter. Measured on a million-record database (bench/README.md, session
 * 19): the execute route's token-and-connector lookup took 0.35–0.42 ms at p50 through kysely,
 * 0.14–0.19 ms prepared.
 */
import { createHash } from 'node:crypto';
import { CompiledQuery, type Compilable, type QueryResult } from 'kysely';
import type { Db } from './db.js';

const names = new Map<string, string>();
/** The longest registered text: longer statements (every search, every page write) skip the lookup. */
let longest = 0;

/** Registers `text` to run prepared, under a name derived from it (one name per text). */
function register(text: string): void {
  if (names.has(text)) return;
  names.set(text, `sx_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`);
  longest = Math.max(longest, text.length);
}

/** The statement name `text` runs under, or undefined when it runs unnamed. */
export function preparedName(text: string): string | undefined {
  return text.length > longest ? undefined : names.get(text);
}

/** Runs a kysely query as a prepared statement (where the store's pool prepares; unnamed elsewhere); returns its rows. */
export async function executePrepared<R>(db: Db, query: Compilable<R>): Promise<R[]> {
  const compiled = query.compile();
  register(compiled.sql);
  return (await db.executeQuery(compiled)).rows;
}

/**
 * Runs a fixed SQL text with `parameters` as a prepared statement, built and compiled by nothing:
 * for the statements a sync runs per page (its hold check, locks, checkpoint, record count), whose
 * kysely builders and compiler took about 4.6 % of the worker's main thread (bench/README.md,
 * session 38). `text` must be a constant: each distinct text is named once and kept for the life
 * of the process.
 */
export async function executeStatement<R>(db: Db, text: string, parameters: readonly unknown[]): Promise<QueryResult<R>> {
  register(text);
  return db.executeQuery(CompiledQuery.raw(text, [...parameters]) as CompiledQuery<R>);
}
