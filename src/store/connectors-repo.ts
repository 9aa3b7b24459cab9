import { sql } from 'kysely';
import type { Db } from './db.js';
import { executeStatement } from './prepared-statements.js';
import type { ConnectorRow } from './schema.js';
import { toPrincipal, type Principal } from './tokens-repo.js';

/** A connector as the rest of the app sees it: never with its secret. */
export interface Connector {
  readonly id: string;
  readonly organizationId: string;
  readonly externalUserId: string;
  readonly connectorType: string;
  readonly name: string;
  readonly authMethod: string;
  readonly replicationConfig: Record<string, unknown>;
  readonly status: 'active' | 'paused';
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Fields to insert a connector; the secret is already sealed. */
export interface NewConnector {
  readonly id: string;
  readonly organizationId: string;
  readonly externalUserId: string;
  readonly connectorType: string;
  readonly name: string;
  readonly authMethod: string;
  readonly replicationConfig: Record<string, unknown>;
  readonly secretKeyId: string;
  readonly secretCiphertext: Buffer;
}

const publicColumns = [
  'id',
  'organization_id',
  'external_user_id',
  'connector_type',
  'name',
  'auth_method',
  'replication_config',
  'status',
  'created_at',
  'updated_at',
] as const;

function toConnector(row: Omit<ConnectorRow, 'secret_ciphertext' | 'secret_key_id'>): Connector {
  return {
    id: row.id,
    organizationId: row.organization_id,
    externalUserId: row.external_user_id,
    connectorType: row.connector_type,
    name: row.name,
    authMethod: row.auth_method,
    replicationConfig: row.replication_config,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function insertConnector(db: Db, c: NewConnector): Promise<Connector> {
  const row = await db
    .insertInto('connectors')
    .values({
      id: c.id,
      organization_id: c.organizationId,
      external_user_id: c.externalUserId,
      connector_type: c.connectorType,
      name: c.name,
      auth_method: c.authMethod,
      replication_config: JSON.stringify(c.replicationConfig),
      secret_key_id: c.secretKeyId,
      secret_ciphertext: c.secretCiphertext,
    })
    .returning(publicColumns)
    .executeTakeFirstOrThrow();
  return toConnector(row);
}

/** A connector by id, scoped to an organization when one is given (tenancy: others are "not found"). */
export async function findConnector(db: Db, id: string, organizationId?: string): Promise<Connector | null> {
  if (!isConnectorId(id)) return null;
  let q = db.selectFrom('connectors').select(publicColumns).where('id', '=', id);
  if (organizationId !== undefined) q = q.where('organization_id', '=', organizationId);
  const row = await q.executeTakeFirst();
  return row === undefined ? null : toConnector(row);
}

/**
 * A live token's principal and, in the same round trip, its organization's connector `id` (null
 * when there is none by that id): the two lookups of the tenant execute route, its hot path.
 * Null when the token is unknown or revoked. `id` must be a uuid.
 */
export async function findCallerConnector(db: Db, tokenHash: Buffer, id: string): Promise<{ principal: Principal; connector: Connector | null } | null> {
  // Every execute request runs it: planned once per connection (two unique-key lookups), and
  // its text fixed, not built and compiled by kysely per request (bench/README.md, session 47).
  const { rows } = await executeStatement<CallerConnectorRow>(db, CALLER_CONNECTOR, [id, tokenHash]);
  const row = rows[0];
  if (row === undefined) return null;
  const principal = toPrincipal({ id: row.token_id, organization_id: row.token_organization_id, is_admin: row.is_admin });
  // A joined row's columns are all null together: its id (the key) says whether there is one.
  return { principal, connector: row.id === null ? null : toConnector(row as Parameters<typeof toConnector>[0]) };
}

/** A row of {@link CALLER_CONNECTOR}: the token's columns, and the connector's (all null when there is none). */
type CallerConnectorRow = { token_id: string; token_organization_id: string; is_admin: boolean } & { [K in keyof Parameters<typeof toConnector>[0]]: Parameters<typeof toConnector>[0][K] | null };

const CALLER_CONNECTOR = `select t.id as token_id, t.organization_id as token_organization_id, t.is_admin,
       c.id, c.organization_id, c.external_user_id, c.connector_type, c.name, c.auth_method, c.replication_config, c.status, c.created_at, c.updated_at
  from api_tokens as t
  left join connectors as c on c.id = $1 and c.organization_id = t.organization_id
 where t.token_hash = $2 and t.revoked_at is null`;

/** Whether a string can be a connector id: anything Postgres would not parse as a uuid cannot (and must not become a 500). */
export const isConnectorId = (id: string): boolean => UUID.test(id);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The connector's status under a row lock held to the end of the caller's transaction: `share` to
 * act on it (create a run), `update` to change it or its schedule. Neither blocks the records'
 * foreign-key checks (FOR KEY SHARE), so page writes go on meanwhile. Null: no such connector.
 */
export async function lockConnectorStatus(db: Db, id: string, lock: 'share' | 'update'): Promise<Connector['status'] | null> {
  const q = db.selectFrom('connectors').select('status').where('id', '=', id);
  const row = await (lock === 'share' ? q.forShare() : q.forNoKeyUpdate()).executeTakeFirst();
  return row?.status ?? null;
}

/** Where a connectors page ends: its last connector's creation time (µs since the epoch, exact) and id. */
export interface ConnectorsKey {
  readonly createdUs: string;
  readonly id: string;
}

/**
 * Connectors of an organization (or all, for admins), newest first, a page after `after`;
 * `next` is null exactly when no connector follows. Keyset paging on (created_at, id): a
 * connector created or deleted meanwhile neither repeats nor hides another.
 */
export async function listConnectors(db: Db, opts: { organizationId?: string | undefined; limit: number; after?: ConnectorsKey | undefined }): Promise<{ connectors: Connector[]; next: ConnectorsKey | null }> {
  let q = db
    .selectFrom('connectors')
    .select(publicColumns)
    .select(sql<string>`(extract(epoch from created_at) * 1000000)::bigint::text`.as('created_us'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(opts.limit + 1);
  if (opts.organizationId !== undefined) q = q.where('organization_id', '=', opts.organizationId);
  if (opts.after !== undefined) {
    const at = sql`to_timestamp(0) + ${opts.after.createdUs}::bigint * interval '1 microsecond'`;
    q = q.where(sql<boolean>`(created_at, id) < (${at}, ${opts.after.id}::uuid)`);
  }
  const rows = await q.execute();
  const page = rows.slice(0, opts.limit);
  const last = page.at(-1);
  const next = rows.length > opts.limit && last !== undefined ? { createdUs: last.created_us, id: last.id } : null;
  return { connectors: page.map(toConnector), next };
}

/** The sealed secret of a connector: only the worker's runtime client opens it. */
export async function loadSealedSecret(db: Db, id: string): Promise<{ keyId: string; ciphertext: Buffer; authMethod: string }> {
  const row = await db
    .selectFrom('connectors')
    .select(['secret_key_id', 'secret_ciphertext', 'auth_method'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { keyId: row.secret_key_id, ciphertext: row.secret_ciphertext, authMethod: row.auth_method };
}
