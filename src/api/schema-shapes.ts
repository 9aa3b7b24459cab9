/**
 * The JSON shapes the route schemas (schemas.ts) document: search params and results, connectors
 * with entity status and freshness, runs. Documentation only, like the route schemas: responses
 * are built by views.ts and connector-service.ts and sent as built.
 */
const nullableTime = { type: 'string', format: 'date-time', nullable: true };

export const searchParams = {
  type: 'object',
  description: 'DESIGN §6: the search filter language; errors name their path relative to params',
  properties: {
    query: {
      type: 'object',
      properties: {
        filter: { type: 'object', description: 'operators as keys: eq, neq, gt, gte, lt, lte, in, like, fuzzy, keyword, contains, any, not, and, or', example: { fuzzy: { name: 'jon smiht' } } },
        sort: { type: 'array', maxItems: 8, items: { type: 'object', additionalProperties: { type: 'string', enum: ['asc', 'desc'] } }, example: [{ created: 'desc' }] },
      },
    },
    limit: { type: 'integer', minimum: 1, maximum: 10000, default: 1000 },
    cursor: { type: 'string', description: 'next_cursor of the previous page (same filter, sort and fields)' },
    fields: { type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }, description: 'dot paths or path arrays to return in data' },
  },
};

const freshness = {
  type: 'object',
  description: 'how old the synced copy is against the schedule; stale past twice the schedule interval',
  properties: {
    age_seconds: { type: 'integer', nullable: true, description: 'since the last successful sync; null before the first' },
    schedule: { type: 'string' },
    interval_seconds: { type: 'integer' },
    stale_after_seconds: { type: 'integer' },
    stale: { type: 'boolean' },
  },
};

const entityStatus = {
  type: 'object',
  properties: {
    entity: { type: 'string' },
    status: { type: 'string', enum: ['initializing', 'ready', 'updating', 'error', 'paused'] },
    record_count: { type: 'integer' },
    last_synced_at: { type: 'string', format: 'date-time', nullable: true },
    next_run_at: { type: 'string', format: 'date-time', nullable: true },
    last_error: { type: 'string', nullable: true },
    freshness,
  },
};

export const connectorView = {
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    external_user_id: { type: 'string' },
    connector_type: { type: 'string' },
    name: { type: 'string' },
    auth_method: { type: 'string' },
    replication_config: { type: 'object', additionalProperties: true },
    status: { type: 'string', enum: ['active', 'paused'] },
    created_at: { type: 'string', format: 'date-time' },
    entities: { type: 'array', items: entityStatus },
  },
};

export const searchResult = {
  description: 'one page of hits',
  type: 'object',
  properties: {
    hits: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, score: { type: 'number', minimum: 0 }, data: { type: 'object', additionalProperties: true } } } },
    next_cursor: { type: 'string', nullable: true, description: 'null exactly when no further hit exists' },
    took_ms: { type: 'number' },
  },
};

export const adminConnectorView = { ...connectorView, properties: { ...connectorView.properties, organization_id: { type: 'string', format: 'uuid' } } };

const counters = { type: 'object', properties: Object.fromEntries(['pages', 'seen', 'inserted', 'updated', 'unchanged', 'deleted'].map((k) => [k, { type: 'integer' }])) };

export const runSummary = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    connector_id: { type: 'string', format: 'uuid' },
    connector_name: { type: 'string', nullable: true },
    connector_type: { type: 'string', nullable: true },
    entity: { type: 'string' },
    trigger: { type: 'string', enum: ['schedule', 'manual', 'replay'] },
    mode: { type: 'string', enum: ['full', 'incremental'] },
    status: { type: 'string', enum: ['queued', 'running', 'succeeded', 'failed', 'cancelled'] },
    replay_of: { type: 'string', nullable: true },
    attempts: { type: 'integer' },
    counters,
    progress: { type: 'object', description: 'seen against the reported total or the previous count; ratio null when neither is known', properties: { seen: { type: 'integer' }, expected: { type: 'integer', nullable: true }, ratio: { type: 'number', nullable: true } } },
    timings: { type: 'object', properties: { queued_at: nullableTime, started_at: nullableTime, finished_at: nullableTime, heartbeat_at: nullableTime, duration_ms: { type: 'integer', nullable: true } } },
    error: { type: 'object', nullable: true, properties: { code: { type: 'string' }, message: { type: 'string' }, detail: { type: 'string' }, upstreamStatus: { type: 'integer' } } },
  },
};

const chainRun = { type: 'object', properties: { id: { type: 'string' }, replay_of: { type: 'string', nullable: true }, status: { type: 'string' }, trigger: { type: 'string' }, queued_at: nullableTime } };

export const runDetail = {
  type: 'object',
  properties: {
    ...runSummary.properties,
    job_id: { type: 'string', nullable: true },
    checkpoint: { type: 'object', nullable: true, properties: { partition: { type: 'integer' }, page: { type: 'object', nullable: true, additionalProperties: true }, max_cursor: { description: 'highest incremental value seen (number or string), or null' }, partitions: { type: 'integer', nullable: true }, reported_total: { type: 'integer', nullable: true } } },
    replay_chain: { type: 'object', properties: { ancestors: { type: 'array', items: chainRun }, replays: { type: 'array', items: chainRun } } },
  },
};
