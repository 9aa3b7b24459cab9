/**
 * Search statements named per connection. A search's text depends only on the shape of its
 * filter (every value is a parameter), and an agent repeats a few shapes; Postgres still parses
 * and analyzes an unnamed statement on every call: 0.1–0.4 ms of a small tenant's 0.7–2 ms
 * search statement (bench/README.md, session 22). A connection with this cache names a text
 * the second time it runs it and keeps the most recently used, deallocating the rest.
 *
 * Only for connections whose plans stay custom (`plan_cache_mode = force_custom_plan`, set on
 * each connection by callback-pool.ts before its cache starts): a generic plan chosen for one tenant's values would serve every other
 * tenant, and a plan right for a 1,000-record tenant reads a million-record tenant's every row.
 * The exception is a statement marked as planned once (plan-marker.ts), whose plan no value can
 * change: the search pool runs those on connections of their own set to `force_generic_plan`.
 */
import type pg from 'pg';

/** Limits of one connection's statement cache. */
export interface StatementCacheLimits {
  /** Texts remembered per connection, named or seen once; past it the least recently used goes. */
  readonly entries: number;
  /** Longer texts always run unnamed: a rare huge filter should not hold server memory. */
  readonly maxChars: number;
}

/** The search pool's limits: at most 100 prepared statements of at most 16,000 characters per connection. */
export const SEARCH_STATEMENTS: StatementCacheLimits = { entries: 100, maxChars: 16_000 };

/** What pg's connection records of the statements it parsed, so that it does not parse them again. */
type ParsedStatements = { parsedStatements: Record<string, string>; submittedNamedStatements: Record<string, string> };

/** Server errors after which a named statement is gone or unusable; the text runs again unnamed. */
export const STALE_STATEMENT = new Set([
  '26000', // invalid_sql_statement_name: the session lost it (DEALLOCATE ALL, DISCARD ALL)
  '0A000', // feature_not_supported: "cached plan must not change result type" after a column change
]);

/** One connection's named statements, most recently used last. */
export class StatementCache {
  readonly #names = new Map<string, string | null>();
  readonly #client: pg.ClientBase;
  readonly #parsed: ParsedStatements | null;
  readonly #limits: StatementCacheLimits;
  #next = 0;

  constructor(client: pg.ClientBase, limits: StatementCacheLimits) {
    this.#client = client;
    this.#limits = limits;
    // pg keeps the names it has parsed on its connection and never forgets one; a deallocated
    // name must leave that record too. Without it (another pg), nothing is named.
    const connection = (client as unknown as { connection?: Partial<ParsedStatements> }).connection;
    const known = typeof connection?.parsedStatements === 'object' && typeof connection.submittedNamedStatements === 'object';
    this.#parsed = known ? (connection as ParsedStatements) : null;
  }

  /** The name to run `text` under: undefined the first time (and always for long texts or an unknown pg). */
  nameFor(text: string): string | undefined {
    if (this.#parsed === null || text.length > this.#limits.maxChars) return undefined;
    if (!this.#names.has(text)) {
      this.#names.set(text, null);
      this.#evictPastLimit();
      return undefined;
    }
    const name = this.#names.get(text) ?? `sx_q${(this.#next += 1)}`;
    this.#names.delete(text);
    this.#names.set(text, name);
    return name;
  }

  /** Drops the statement of `text` and deallocates its name (an eviction); it is named afresh when it runs again. */
  #forget(text: string): void {
    const name = this.drop(text);
    if (name !== null) this.deallocate(name);
  }

  /**
   * Drops the statement of `text` from the cache (after a {@link STALE_STATEMENT} error) and
   * returns its name, for the caller to {@link deallocate} once the connection is free: while a
   * failed statement still holds the connection, one more statement is all a client may queue
   * (pg 8.19 warns of a second, pg 9 refuses it), and the rerun goes first.
   */
  drop(text: string): string | null {
    const name = this.#names.get(text);
    this.#names.delete(text);
    return typeof name === 'string' ? name : null;
  }

  #evictPastLimit(): void {
    while (this.#names.size > this.#limits.entries) {
      const oldest = this.#names.keys().next().value as string;
      this.#forget(oldest);
    }
  }

  /** Deallocates a name this cache gave out, ahead of the connection's next statement. */
  deallocate(name: string): void {
    // Queued ahead of the connection's next statement, so no round trip is waited for; it fails
    // only where the session has already lost the statement, which is the state it asks for.
    this.#client.query(`deallocate ${name}`, () => undefined);
    // Names are never reused, so pg's record can go at once.
    delete this.#parsed?.parsedStatements[name];
    delete this.#parsed?.submittedNamedStatements[name];
  }
}
