/**
 * Creating and reading connectors: validation per kind, credentials sealed before they touch
 * the database, entity state rows, and the first sync of every replicated entity.
 */
import { randomUUID } from 'node:crypto';
import { getConnectorDef, getEntityDef, searchableEntities } from '../connectors/catalog/index.js';
import type { ConnectorDef } from '../connectors/catalog/types.js';
import { validateCredentials, validateReplicationConfig } from '../connectors/catalog/validate.js';
import { AppError } from '../errors.js';
import { searchTarget } from '../search/target.js';
import { insertConnector, findConnector, type Connector } from '../store/connectors-repo.js';
import { sealJson } from '../store/crypto.js';
import { ensureEntityStates, listEntityStates, setNextRun } from '../store/entity-state-repo.js';
import type { Principal } from '../store/tokens-repo.js';
import { requestSync } from '../worker/request-sync.js';
import { upsertSchedule } from '../worker/schedules.js';
import { within } from '../within.js';
import type { Deps } from './deps.js';
import { freshnessOf, type Freshness } from './freshness.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function requiredString(body: Record<string, unknown>, key: string, max = 256): string {
  const v = body[key];
  if (typeof v !== 'string' || v.trim() === '') throw new AppError('invalid_request', `${key} is required and must be a non-empty string`, { path: key });
  if (v.length > max) throw new AppError('invalid_request', `${key} must be at most ${max} characters`, { path: key });
  return v;
}

const BODY_KEYS = new Set(['external_user_id', 'connector_type', 'name', 'credentials', 'server_side_oauth_secret_id', 'replication_config']);

/** The validated create-connector body (overview §4.1). */
export interface CreateConnectorInput {
  readonly externalUserId: string;
  readonly connectorType: string;
  readonly name: string;
  readonly secret: { readonly method: string; readonly value: Record<string, unknown> };
  readonly replicationConfig: Record<string, unknown>;
}

/**
 * The secret id of the hosted OAuth flow (overview §5.3), which the runtime resolves to tokens. Only
 * for kinds the reference gives an OAuth method: a token-only kind's connector could never sync.
 */
function oauthSecret(def: ConnectorDef, body: Record<string, unknown>): CreateConnectorInput['secret'] {
  if (!def.credentialMethods.some((m) => m.name === 'oauth')) {
    const methods = def.credentialMethods.map((m) => m.name).join(', ');
    throw new AppError('invalid_request', `${def.key} has no OAuth method (it takes: ${methods}); send credentials instead`, { path: 'server_side_oauth_secret_id' });
  }
  return { method: 'oauth_secret', value: { server_side_oauth_secret_id: requiredString(body, 'server_side_oauth_secret_id', 512) } };
}

/** Validates a create-connector body; every error names its field. */
export function parseCreateConnector(body: unknown): CreateConnectorInput {
  if (!isObject(body)) throw new AppError('invalid_request', 'body must be a JSON object', { path: '' });
  for (const key of Object.keys(body)) if (!BODY_KEYS.has(key)) throw new AppError('invalid_request', `unknown field "${key}"`, { path: key });
  const connectorType = requiredString(body, 'connector_type', 64);
  const def = getConnectorDef(connectorType);
  // null is absent, as everywhere else in the API (a client serializing an unset field sends it).
  const hasCreds = body.credentials !== undefined && body.credentials !== null;
  const hasSecretId = body.server_side_oauth_secret_id !== undefined && body.server_side_oauth_secret_id !== null;
  if (hasCreds === hasSecretId) {
    throw new AppError('invalid_request', 'send exactly one of credentials or server_side_oauth_secret_id', { path: hasCreds ? 'server_side_oauth_secret_id' : 'credentials' });
  }
  const secret = hasCreds ? validateCredentials(def, body.credentials) : oauthSecret(def, body);
  if (!isObject(body.replication_config)) throw new AppError('invalid_request', 'replication_config is required and must be an object', { path: 'replication_config' });
  return {
    externalUserId: requiredString(body, 'external_user_id'),
    connectorType,
    name: requiredString(body, 'name'),
    secret,
    replicationConfig: validateReplicationConfig(def, body.replication_config),
  };
}

/** Entities a connector replicates: its config's `entities`, else every searchable, listable one. */
export function replicatedEntities(connector: Pick<Connector, 'connectorType' | 'replicationConfig'>): string[] {
  const all = searchableEntities(getConnectorDef(connector.connectorType)).filter((e) => e.read !== undefined).map((e) => e.name);
  const chosen = connector.replicationConfig.entities;
  return Array.isArray(chosen) ? all.filter((e) => chosen.includes(e)) : all;
}

/**
 * How long creating a connector waits for its schedule. A queue that is down does not fail
 * (its client reconnects forever): without a bound the request would hang. A schedule that
 * lands after the connector was taken back out only ticks into "no such connector".
 */
const SCHEDULE_TIMEOUT_MS = 10_000;

/**
 * Creates or updates the connector's job scheduler, or fails `unavailable` when the queue does
 * not answer in time; the entities show the next tick at once, not only after the first one.
 */
export async function scheduleConnector(deps: Deps, connector: Connector): Promise<void> {
  const next = await within(upsertSchedule(deps.scheduleQueue, connector), SCHEDULE_TIMEOUT_MS, () => new AppError('unavailable', 'the schedule queue did not answer; try again', { retryable: true, retryAfterSec: 5 }));
  if (next !== null) await setNextRun(deps.db, connector.id, next);
}

/** Creates a connector and queues its first sync; returns it with entity status. */
export async function createConnector(deps: Deps, principal: Principal, input: CreateConnectorInput): Promise<ConnectorView> {
  const id = randomUUID();
  const sealed = sealJson(deps.keyring, input.secret.value, id);
  const connector = await deps.db.transaction().execute(async (tx) => {
    const c = await insertConnector(tx, {
      id,
      organizationId: principal.organizationId,
      externalUserId: input.externalUserId,
      connectorType: input.connectorType,
      name: input.name,
      authMethod: input.secret.method,
      replicationConfig: input.replicationConfig,
      secretKeyId: sealed.keyId,
      secretCiphertext: sealed.ciphertext,
    });
    await ensureEntityStates(tx, c.id, replicatedEntities(c));
    return c;
  });
  // After the commit, so a slow queue never holds a database connection in an open transaction.
  // A queue that refuses the schedule takes the connector back out: a client retrying must not
  // end up with a duplicate that never syncs. If a first run cannot be queued below, the
  // schedule's next tick starts it (as a full run: the entity has none yet).
  try {
    await scheduleConnector(deps, connector);
  } catch (e) {
    await deps.db.deleteFrom('connectors').where('id', '=', connector.id).execute();
    throw e;
  }
  for (const entity of replicatedEntities(connector)) {
    await requestSync(deps, connector, { entity, trigger: 'schedule', mode: 'full' }).catch((e: unknown) =>
      deps.logger.warn({ connector: connector.id, entity, err: { message: (e as Error).message } }, 'first sync not queued; the schedule will start it'),
    );
  }
  deps.logger.info({ connector: connector.id, connectorType: connector.connectorType }, 'connector created');
  return viewConnector(deps, connector);
}

/** A connector as the API returns it: never credentials. */
export interface ConnectorView {
  id: string;
  external_user_id: string;
  connector_type: string;
  name: string;
  auth_method: string;
  replication_config: Record<string, unknown>;
  status: string;
  created_at: string;
  entities: { entity: string; status: string; record_count: number; last_synced_at: string | null; next_run_at: string | null; last_error: string | null; freshness: Freshness }[];
}

export async function viewConnector(deps: Deps, c: Connector, now = Date.now()): Promise<ConnectorView> {
  const states = await listEntityStates(deps.db, c.id);
  return {
    id: c.id,
    external_user_id: c.externalUserId,
    connector_type: c.connectorType,
    name: c.name,
    auth_method: c.authMethod,
    replication_config: c.replicationConfig,
    status: c.status,
    created_at: c.createdAt.toISOString(),
    entities: states.map((s) => ({
      entity: s.entity,
      status: s.status,
      record_count: Number(s.record_count),
      last_synced_at: s.last_synced_at?.toISOString() ?? null,
      next_run_at: s.next_run_at?.toISOString() ?? null,
      last_error: s.last_error,
      freshness: freshnessOf(s, c, now),
    })),
  };
}

/**
 * A connector of the principal's organization; others' connectors are `not_found` (ids don't
 * leak). Admin tokens too (DESIGN §6: a token sees only its own organization's connectors):
 * operators reach every organization through the admin API, never through the tenant routes.
 */
export async function connectorFor(deps: Deps, principal: Principal, id: string, path = 'connector_id'): Promise<Connector> {
  return foundConnector(await findConnector(deps.db, id, principal.organizationId), id, path);
}

/** A connector looked up by id for the caller, or the caller's 404 (other organizations' connectors are "not found" too). */
export function foundConnector(c: Connector | null, id: string, path = 'connector_id'): Connector {
  if (c === null) throw new AppError('not_found', `connector ${JSON.stringify(id).slice(0, 80)} not found`, { path });
  return c;
}

/**
 * An entity this connector does not replicate has no synced copy: searching it would answer an
 * empty page forever, which reads like "no match". Said plainly instead.
 */
export function assertReplicated(connector: Connector, entity: string): void {
  if (replicatedEntities(connector).includes(entity)) return;
  searchTarget(connector.connectorType, entity); // an entity without `search` says so first
  const def = getEntityDef(getConnectorDef(connector.connectorType), entity);
  const why = def.read === undefined
    ? `the ${connector.connectorType} catalog has no list action to replicate it from`
    : `it is not in this connector's replication_config.entities; add it to search it`;
  throw new AppError('entity_not_searchable', `${entity} is not replicated by this connector: ${why}`, { path: 'entity' });
}
