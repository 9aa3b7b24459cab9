/**
 * The only reader of process.env. One zod schema; every problem is reported at once.
 */
import { z } from 'zod';
import { AppError } from './errors.js';

const optionalUrl = z.string().url().optional();
// Digits only: coercion would read "" or " " as port 0, a random port nobody is told about.
const port = z.string().trim().regex(/^\d+$/, 'must be a port number (1-65535)').transform(Number).pipe(z.number().int().min(1).max(65535));

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
    DATABASE_URL: optionalUrl,
    REDIS_URL: optionalUrl,
    OPENSEARCH_URL: optionalUrl,
    SEARCH_BACKEND: z.enum(['postgres', 'opensearch']).optional(),
    /** Prepended to index and alias names: several deployments (or test runs) on one cluster. */
    OPENSEARCH_INDEX_PREFIX: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'lower-case letters, digits, _ and - only, not first (1-64)').default(''),
    QUEUE_BACKEND: z.enum(['redis', 'postgres']).optional(),
    /** BullMQ key prefix: deployments sharing one Redis need their own (job ids are per database). */
    QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . - only (1-64)').default('bull'),
    // Credentials in the URL would be echoed by fetch's errors into run errors and logs.
    CONNECTOR_RUNTIME_URL: z.string().url().refine((u) => !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(u), 'must not carry user:password; send a token with CONNECTOR_RUNTIME_TOKEN').optional(),
    CONNECTOR_RUNTIME_TOKEN: z.string().min(1).optional(),
    CONNECTOR_RUNTIME_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    /** Base64 AES-256 keys as `keyId:base64,keyId:base64`; the first encrypts, all decrypt. */
    CREDENTIALS_KEY: z.string().min(1).optional(),
    CURSOR_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    PORT: port.default(8080),
    SANDBOX_PORT: port.default(8090),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
    DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(1000).optional(),
    WORKER_LOCK_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
    MAX_RUNS_PER_CONNECTOR: z.coerce.number().int().min(1).max(64).default(2),
    SYNC_PARTITION_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    SYNC_TIME_SLICES: z.coerce.number().int().min(1).max(256).default(8),
    SEARCH_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    RUN_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
    TRUST_PROXY: z.enum(['true', 'false']).default('false'),
    DATABASE_PREPARED_STATEMENTS: z.enum(['true', 'false']).default('true'),
  });

/** Rules across variables; checked on the raw values so they are reported with the others. */
function crossProblems(raw: Record<string, string | undefined>): string[] {
  const out: string[] = [];
  if (raw.SEARCH_BACKEND === 'opensearch' && raw.OPENSEARCH_URL === undefined) out.push('OPENSEARCH_URL: required when SEARCH_BACKEND=opensearch');
  if (raw.QUEUE_BACKEND === 'redis' && raw.REDIS_URL === undefined) out.push('REDIS_URL: required when QUEUE_BACKEND=redis');
  if (raw.NODE_ENV === 'production') {
    for (const key of ['DATABASE_URL', 'CREDENTIALS_KEY', 'CURSOR_SECRET']) if (raw[key] === undefined) out.push(`${key}: required in production`);
  }
  return out;
}

/**
 * A pool that fits the worker: each sync job may hold up to three connections at once (two
 * overlapping page writes, or a page write and the index shipper), plus a few for claims,
 * heartbeats and the queue. Capped below Postgres's default `max_connections` (100) with room for
 * other processes; set DATABASE_POOL_MAX beyond it on purpose.
 */
export function defaultPoolMax(workerConcurrency: number): number {
  return Math.min(40, Math.max(10, workerConcurrency * 3 + 4));
}

/** Raw, validated environment. */
export type Env = z.infer<typeof schema>;

/** Resolved configuration: defaults chosen, backends decided. */
export interface Config {
  readonly env: Env['NODE_ENV'];
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly opensearchUrl: string | undefined;
  readonly searchBackend: 'postgres' | 'opensearch';
  /** Prepended to OpenSearch index and alias names. */
  readonly opensearchIndexPrefix: string;
  readonly queueBackend: 'redis' | 'postgres';
  readonly queuePrefix: string;
  readonly runtimeUrl: string | undefined;
  readonly runtimeToken: string | undefined;
  readonly runtimeTimeoutMs: number;
  readonly credentialsKey: string | undefined;
  readonly cursorSecret: string | undefined;
  readonly logLevel: Env['LOG_LEVEL'];
  readonly port: number;
  readonly sandboxPort: number;
  readonly workerConcurrency: number;
  /** Connections of the process's main Postgres pool (searches have their own). */
  readonly databasePoolMax: number;
  /** How long a job stays locked to a worker that stopped answering (then another resumes it). */
  readonly workerLockMs: number;
  readonly maxRunsPerConnector: number;
  /** Partitions of one run read at once. */
  readonly partitionConcurrency: number;
  /** Time slices of a full read of one long list (1: off). */
  readonly timeSlices: number;
  /** Statement timeout of one search on the Postgres backend. */
  readonly searchTimeoutMs: number;
  /** Finished runs older than this are pruned at the connector's schedule ticks. */
  readonly runRetentionDays: number;
  /** Behind a reverse proxy: trust X-Forwarded-For/-Proto (client address, https). */
  readonly trustProxy: boolean;
  /** Run the hot fixed statements (auth lookups, prepared-statements.ts) and repeated searches (statement-cache.ts) as named prepared statements. */
  readonly preparedStatements: boolean;
}

/** Parses an environment (default: process.env); throws one `config_invalid` listing every problem. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  const lines = [...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`)), ...crossProblems(cleaned)];
  if (!parsed.success || lines.length > 0) {
    throw new AppError('config_invalid', `invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    opensearchUrl: e.OPENSEARCH_URL,
    searchBackend: e.SEARCH_BACKEND ?? (e.OPENSEARCH_URL !== undefined ? 'opensearch' : 'postgres'),
    opensearchIndexPrefix: e.OPENSEARCH_INDEX_PREFIX,
    queueBackend: e.QUEUE_BACKEND ?? (e.REDIS_URL !== undefined ? 'redis' : 'postgres'),
    queuePrefix: e.QUEUE_PREFIX,
    runtimeUrl: e.CONNECTOR_RUNTIME_URL,
    runtimeToken: e.CONNECTOR_RUNTIME_TOKEN,
    runtimeTimeoutMs: e.CONNECTOR_RUNTIME_TIMEOUT_MS,
    credentialsKey: e.CREDENTIALS_KEY,
    cursorSecret: e.CURSOR_SECRET,
    logLevel: e.LOG_LEVEL,
    port: e.PORT,
    sandboxPort: e.SANDBOX_PORT,
    workerConcurrency: e.WORKER_CONCURRENCY,
    databasePoolMax: e.DATABASE_POOL_MAX ?? defaultPoolMax(e.WORKER_CONCURRENCY),
    workerLockMs: e.WORKER_LOCK_MS,
    maxRunsPerConnector: e.MAX_RUNS_PER_CONNECTOR,
    partitionConcurrency: e.SYNC_PARTITION_CONCURRENCY,
    timeSlices: e.SYNC_TIME_SLICES,
    searchTimeoutMs: e.SEARCH_TIMEOUT_MS,
    runRetentionDays: e.RUN_RETENTION_DAYS,
    trustProxy: e.TRUST_PROXY === 'true',
    preparedStatements: e.DATABASE_PREPARED_STATEMENTS === 'true',
  };
}
