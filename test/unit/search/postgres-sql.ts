/** The Postgres backend's SQL for a filter on the conformance target, compiled with no database behind it. */
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { parseSearchParams } from '../../../src/search/dsl/parse.js';
import { compileSearch } from '../../../src/search/postgres/compile-search.js';
import { target } from '../../conformance/dataset.js';

/** A kysely that compiles Postgres SQL with no database behind it. */
export const offlineDb = new Kysely<never>({ dialect: { createAdapter: () => new PostgresAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (k) => new PostgresIntrospector(k), createQueryCompiler: () => new PostgresQueryCompiler() } });

/** The search statement's text for `filter` (the conformance suites run the same SQL). */
export const compiledSql = (filter: unknown): string => compileSearch({ target, connectorId: '00000000-0000-0000-0000-000000000000', query: parseSearchParams(target, { query: { filter } }), after: null, size: 11 }).compile(offlineDb).sql;
