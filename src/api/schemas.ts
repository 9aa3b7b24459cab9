/**
 * Route schemas: documentation for /openapi.json only. The app compiles them with a validator
 * that accepts everything and a plain JSON serializer (see server.ts), so our own parsers stay
 * the one source of 400 messages and responses are never reshaped by a schema.
 */
import { adminConnectorView, connectorView, runDetail, runSummary, searchParams, searchResult } from './schema-shapes.js';

const bearer = [{ bearer: [] as string[] }];
const errorRef = { $ref: 'error#' };
const idParam = { type: 'object', properties: { id: { type: 'string', description: 'connector id (uuid)' } }, required: ['id'] };
const runParam = { type: 'object', properties: { id: { type: 'string', description: 'run id' } }, required: ['id'] };
const entityParams = { type: 'object', properties: { id: { type: 'string' }, entity: { type: 'string' } }, required: ['id', 'entity'] };
const emptyBody = { type: 'object', description: 'empty object or no body' };
const anyObject = { type: 'object', additionalProperties: true };
const connectorsPage = { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 1000 }, cursor: { type: 'string', description: 'next_cursor of the previous page' } } };

/** What each error status means here; every one answers the one `error` shape. */
const ERROR_MEANING: Record<number, string> = {
  400: 'invalid request: `code` names the check (invalid_request, invalid_query, unknown_field, type_mismatch, invalid_cursor, entity_not_searchable, action_not_supported), `path` the offending field',
  401: 'unauthorized: missing, unknown or revoked token',
  403: 'forbidden: this route needs an admin token',
  404: "not_found: no such connector or run (another organization's connector too)",
  409: "conflict: a run already active, a finished run, or a paused connector",
  503: 'unavailable: the store, queue or index does not answer; retry after Retry-After',
};
const errors = (...codes: number[]) => Object.fromEntries([...codes, 503].map((c) => [c, { description: ERROR_MEANING[c], ...errorRef }]));
const ok = (status: number, description: string) => ({ [status]: { description, ...anyObject } });

/** Shared definitions added with `app.addSchema`. */
export const sharedSchemas = [
  {
    $id: 'error',
    type: 'object',
    properties: { error: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' }, path: { type: 'string' } }, required: ['code', 'message'] } },
  },
];

function admin(summary: string, extra: Record<string, unknown>, status = 200, shape: Record<string, unknown> = anyObject) {
  return { tags: ['admin'], summary, security: bearer, response: { [status]: { description: summary, ...shape }, ...errors(400, 401, 403, 404, 409) }, ...extra };
}

const page = (key: string, items: Record<string, unknown>) => ({ type: 'object', properties: { [key]: { type: 'array', items }, next_cursor: { type: 'string', nullable: true, description: 'null exactly when nothing follows' } } });
const runOf = { type: 'object', properties: { run: runSummary } };

export const publicSchemas = {
  createConnector: {
    tags: ['connectors'],
    summary: 'Create a connector (credentials are stored encrypted and never returned)',
    security: bearer,
    body: {
      type: 'object',
      required: ['external_user_id', 'connector_type', 'name', 'replication_config'],
      properties: {
        external_user_id: { type: 'string' },
        connector_type: { type: 'string' },
        name: { type: 'string' },
        credentials: { type: 'object', description: 'exactly one of credentials or server_side_oauth_secret_id' },
        server_side_oauth_secret_id: { type: 'string' },
        replication_config: { type: 'object' },
      },
    },
    response: { 201: { description: 'the connector with per-entity status (never credentials)', ...connectorView }, ...errors(400, 401) },
  },
  oauthInitiate: {
    tags: ['connectors'],
    summary: 'OAuth initiate (overview 5.3) runs on the connector execution service; answered with action_not_supported',
    security: bearer,
    response: { ...errors(400, 401) },
  },
  listConnectors: { tags: ['connectors'], summary: "The organization's connectors, newest first", security: bearer, querystring: connectorsPage, response: { 200: { description: 'one page', type: 'object', properties: { connectors: { type: 'array', items: connectorView }, next_cursor: { type: 'string', nullable: true } } }, ...errors(400, 401) } },
  getConnector: { tags: ['connectors'], summary: 'A connector with per-entity status and freshness', security: bearer, params: idParam, response: { 200: { description: 'the connector', ...connectorView }, ...errors(401, 404) } },
  execute: {
    tags: ['connectors'],
    summary: 'Execute an action; only `search` is served here',
    security: bearer,
    params: idParam,
    body: { type: 'object', required: ['entity', 'action'], properties: { entity: { type: 'string' }, action: { type: 'string', enum: ['search'] }, params: searchParams } },
    response: { 200: searchResult, ...errors(400, 401, 404) },
  },
  healthz: { tags: ['ops'], summary: 'Liveness' },
  readyz: { tags: ['ops'], summary: 'Readiness: store, queue and index reachable (503 otherwise)' },
  metrics: { tags: ['ops'], summary: 'Prometheus metrics (text exposition format)' },
  openapi: { tags: ['ops'], summary: 'This document' },
};

export const adminSchemas = {
  listRuns: admin('List runs, newest first, keyset-paged', {
    querystring: {
      type: 'object',
      properties: {
        connector_id: { type: 'string' },
        entity: { type: 'string' },
        status: { type: 'string', description: 'one or more of queued,running,succeeded,failed,cancelled (comma-separated)' },
        since: { type: 'string', format: 'date-time', description: 'queued at or after' },
        until: { type: 'string', format: 'date-time', description: 'queued before' },
        limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
        cursor: { type: 'string', description: 'next_cursor of the previous page' },
      },
    },
  }, 200, page('runs', runSummary)),
  getRun: admin('One run: counters, timings, checkpoint, error, replay chain both ways', { params: runParam }, 200, runDetail),
  replayRun: admin('Replay a run as a new run (from its checkpoint unless from_start)', { params: runParam, body: { type: 'object', properties: { from_start: { type: 'boolean' } } } }, 202, { type: 'object', properties: { run: runSummary, from_checkpoint: { type: 'boolean' } } }),
  cancelRun: admin('Cancel a queued or running run', { params: runParam, body: emptyBody }, 200, runOf),
  listConnectors: admin('Every connector (all organizations) with entity status, newest first; keyset pages via next_cursor', { querystring: connectorsPage }, 200, page('connectors', adminConnectorView)),
  getConnector: admin('A connector (any organization) with entity status', { params: idParam }, 200, adminConnectorView),
  triggerSync: admin('Trigger a sync of one entity (409 while it has an active run) or of all (an entity with an active run keeps it, returned in its place)', { params: idParam, body: { type: 'object', properties: { entity: { type: 'string' }, mode: { type: 'string', enum: ['full', 'incremental', 'auto'] } } } }, 202, { type: 'object', properties: { runs: { type: 'array', items: runSummary } } }),
  pause: admin('Pause a connector (schedule removed, active runs cancelled)', { params: idParam, body: emptyBody }, 200, adminConnectorView),
  resume: admin('Resume a paused connector', { params: idParam, body: emptyBody }, 200, adminConnectorView),
  resync: admin('Resync an entity: forget the incremental cursor, keep data, run full', { params: entityParams, body: emptyBody }, 202, runOf),
  reset: admin('Reset an entity: tombstone its records, forget the cursor, run full', { params: entityParams, body: emptyBody }, 202, { type: 'object', properties: { tombstoned: { type: 'integer' }, run: runSummary } }),
  reindex: admin('Reindex a (connector type, entity)', {
    body: { type: 'object', required: ['connector_type', 'entity'], properties: { connector_type: { type: 'string' }, entity: { type: 'string' } } },
  }),
  searchFields: admin("A connector's replicated searchable entities: fields with catalog types, the operators each allows, sortable or not (the search console)", { params: idParam }),
  execute: { ...admin('Search any connector as its agents do (same body, answer and errors as the tenant execute); for the dashboard console, logged with the operator token id', { params: idParam }), body: { type: 'object', required: ['entity', 'action'], properties: { entity: { type: 'string' }, action: { type: 'string', enum: ['search'] }, params: searchParams } }, response: { 200: searchResult, ...errors(400, 401, 403, 404) } },
  session: admin('Exchange the admin Bearer token for the short-lived bull-board session cookie', { body: emptyBody }),
  endSession: admin('Clear the bull-board session cookie', {}),
};
