/**
 * The execute route's token lookups run as named prepared statements on the store's pool
 * (src/store/prepared-statements.ts): planned once per connection, still checking revocation on
 * every call; DATABASE_PREPARED_STATEMENTS=false runs them unnamed (for poolers that cannot keep them).
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCallerConnector } from '../../src/store/connectors-repo.js';
import { hashToken } from '../../src/store/crypto.js';
import { createDb, type DB } from '../../src/store/db.js';
import { createToken, ensureOrganization, findPrincipal, revokeToken } from '../../src/store/tokens-repo.js';
import { insertConnectorRow } from '../conformance/postgres-page.js';
import { migratedDatabase } from './helpers/fresh-db.js';

/** Names of the statements prepared in the session of a one-connection pool. */
async function preparedNames(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(db);
  return rows.map((r) => r.name);
}

describe('prepared auth lookups', () => {
  let url: string;
  const dbs: Kysely<DB>[] = [];
  const oneConnection = (preparedStatements: boolean): Kysely<DB> => {
    const { db } = createDb(url, 1, { preparedStatements });
    dbs.push(db);
    return db;
  };

  beforeAll(async () => {
    url = await migratedDatabase();
  });
  afterAll(async () => {
    for (const db of dbs) await db.destroy();
  });

  it('prepares the execute lookup once per connection and still answers each call, revocation included', async () => {
    const db = oneConnection(true);
    const org = await ensureOrganization(db, 'conformance');
    const connectorId = await insertConnectorRow(db, 'payments');
    const { token, id } = await createToken(db, org);
    expect(await preparedNames(db)).toEqual([]);
    const first = await findCallerConnector(db, hashToken(token), connectorId);
    const named = await preparedNames(db);
    expect(named).toHaveLength(1);
    expect(named[0]).toMatch(/^sx_[0-9a-f]{24}$/);
    // The second call runs the prepared statement: same answer, no new statement.
    const again = await findCallerConnector(db, hashToken(token), connectorId);
    expect(again).toEqual(first);
    expect(again?.connector?.id).toBe(connectorId);
    expect(await preparedNames(db)).toEqual(named);
    // Another organization's connector is not the caller's, through the prepared plan too.
    const other = await createToken(db, await ensureOrganization(db, 'another'));
    expect((await findCallerConnector(db, hashToken(other.token), connectorId))?.connector).toBeNull();
    await revokeToken(db, id);
    expect(await findCallerConnector(db, hashToken(token), connectorId)).toBeNull();
  });

  it('prepares the bearer lookup too, and nothing else (searches and writes vary with their values)', async () => {
    const db = oneConnection(true);
    const { token, id } = await createToken(db, await ensureOrganization(db, 'conformance'));
    expect((await findPrincipal(db, token))?.tokenId).toBe(id);
    await sql`select ${'a value'}::text as v`.execute(db);
    expect(await preparedNames(db)).toHaveLength(1);
    await revokeToken(db, id);
    expect(await findPrincipal(db, token)).toBeNull();
  });

  it('runs them unnamed when prepared statements are off', async () => {
    const db = oneConnection(false);
    const org = await ensureOrganization(db, 'conformance');
    const { token } = await createToken(db, org);
    const connectorId = await insertConnectorRow(db, 'payments');
    expect((await findCallerConnector(db, hashToken(token), connectorId))?.connector?.id).toBe(connectorId);
    expect((await findPrincipal(db, token))?.organizationId).toBe(org);
    expect(await preparedNames(db)).toEqual([]);
  });
});
