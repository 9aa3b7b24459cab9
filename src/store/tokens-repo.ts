import type { Db } from './db.js';
import { executePrepared } from './prepared-statements.js';
import { hashToken, newToken } from './crypto.js';

/** Who a bearer token speaks for. */
export interface Principal {
  readonly organizationId: string;
  readonly tokenId: string;
  readonly isAdmin: boolean;
}

/** Finds or creates an organization by name; returns its id. */
export async function ensureOrganization(db: Db, name: string): Promise<string> {
  const row = await db
    .insertInto('organizations')
    .values({ name })
    .onConflict((oc) => oc.column('name').doUpdateSet({ name }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Token ids are uuids: anything else cannot name one (and must not reach a uuid comparison). */
const TOKEN_ID = /^[0-9a-f-]{36}$/i;

/**
 * Creates a token for an organization; the plaintext is returned once and only its hash is
 * stored. The id names it later (listing, revoking).
 */
export async function createToken(db: Db, organizationId: string, opts: { admin?: boolean; label?: string } = {}): Promise<{ token: string; id: string }> {
  const token = newToken();
  const row = await db
    .insertInto('api_tokens')
    .values({ organization_id: organizationId, token_hash: hashToken(token), is_admin: opts.admin ?? false, label: opts.label ?? '' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, id: row.id };
}

/** A principal from a token row's id, organization and admin flag. */
export const toPrincipal = (row: { id: string; organization_id: string; is_admin: boolean }): Principal => ({ organizationId: row.organization_id, tokenId: row.id, isAdmin: row.is_admin });

/** The principal of a live token, or null. */
export async function findPrincipal(db: Db, token: string): Promise<Principal | null> {
  const query = db.selectFrom('api_tokens').select(['id', 'organization_id', 'is_admin']).where('token_hash', '=', hashToken(token)).where('revoked_at', 'is', null);
  // Every bearer request that names no connector runs it: planned once per connection.
  const [row] = await executePrepared(db, query);
  return row === undefined ? null : toPrincipal(row);
}

/** The principal of a live token by its id (admin session cookies carry the id, never the token). */
export async function findPrincipalById(db: Db, tokenId: string): Promise<Principal | null> {
  if (!TOKEN_ID.test(tokenId)) return null;
  const row = await db
    .selectFrom('api_tokens')
    .select(['id', 'organization_id', 'is_admin'])
    .where('id', '=', tokenId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row === undefined ? null : toPrincipal(row);
}

/** A token as operators list it: never its hash, never its plaintext. */
export interface TokenInfo {
  readonly id: string;
  readonly organization: string;
  readonly label: string;
  readonly is_admin: boolean;
  readonly created_at: Date;
  readonly revoked_at: Date | null;
}

/** Tokens, newest first; of one organization (by name) when `org` is given. */
export async function listTokens(db: Db, org?: string): Promise<TokenInfo[]> {
  let q = db
    .selectFrom('api_tokens as t')
    .innerJoin('organizations as o', 'o.id', 't.organization_id')
    .select(['t.id', 'o.name as organization', 't.label', 't.is_admin', 't.created_at', 't.revoked_at'])
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id');
  if (org !== undefined) q = q.where('o.name', '=', org);
  return q.execute();
}

/**
 * Revokes a token by id: every request with it, and every dashboard session opened with it, is
 * refused from then on. False when no live token has that id (unknown, or already revoked).
 */
export async function revokeToken(db: Db, tokenId: string): Promise<boolean> {
  if (!TOKEN_ID.test(tokenId)) return false;
  const res = await db.updateTable('api_tokens').set({ revoked_at: new Date() }).where('id', '=', tokenId).where('revoked_at', 'is', null).executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
