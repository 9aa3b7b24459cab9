/** HTTP shell of the sandbox runtime: `/v1/execute` plus `/v1/control/*` for tests and the demo. */
import http from 'node:http';
import { AppError, isAppError } from '../errors.js';
import { RENDERED } from './dataset.js';
import type { FaultSpec } from './faults.js';
import { Sandbox, type ExecuteRequest } from './sandbox.js';

const STATUS: Record<string, number> = { invalid_request: 400, unauthorized: 401, forbidden: 403, not_found: 404 };

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return {};
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* fall through */
  }
  throw new AppError('invalid_request', 'body must be a JSON object', { path: '' });
}

/** The JSON of a response; records served as their pre-rendered text are spliced in as they are (dataset.ts). */
function bodyText(body: unknown): string {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data) || !data.some((r) => typeof r === 'object' && r !== null && RENDERED in r)) return JSON.stringify(body);
  const { data: _data, ...others } = body as Record<string, unknown>;
  const inner = JSON.stringify(others).slice(1, -1);
  const records = data.map((r: Record<PropertyKey, unknown>) => (typeof r[RENDERED] === 'string' ? r[RENDERED] : JSON.stringify(r)));
  return `{"data":[${records.join(',')}]${inner === '' ? '' : `,${inner}`}}`;
}

function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  // Encoded once: Buffer.byteLength and end(text) would each encode the ~120 kB page.
  const bytes = Buffer.from(bodyText(body), 'utf8');
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': bytes.length, ...headers });
  res.end(bytes);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

async function applyFault(f: FaultSpec, res: http.ServerResponse): Promise<boolean> {
  if (f.kind === 'null_cursor') return false;
  if (f.kind === 'slow') {
    await sleep(f.delayMs ?? 1000);
    return false;
  }
  if (f.kind === 'truncated') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":[{"id":"cus_');
    return true;
  }
  const status = f.status ?? 500;
  // A 429 always says when to come back; a 503 (maintenance) only when the fault says so.
  const retryAfter = status === 429 ? (f.retryAfterSec ?? 1) : status === 503 ? f.retryAfterSec : undefined;
  const headers: Record<string, string> = retryAfter === undefined ? {} : { 'retry-after': String(retryAfter) };
  const code = status === 429 ? 'rate_limited' : status === 401 ? 'unauthorized' : status >= 500 ? 'upstream_error' : 'invalid_request';
  send(res, status, { error: { code, message: f.message ?? `injected ${status}` } }, headers);
  return true;
}

async function execute(sb: Sandbox, body: Record<string, unknown>, res: http.ServerResponse): Promise<void> {
  const req = body as unknown as ExecuteRequest;
  const creds = req.credentials;
  if (typeof creds !== 'object' || creds === null || Object.keys(creds).length === 0) {
    throw new AppError('unauthorized', 'missing or invalid credentials', { path: 'credentials' });
  }
  const key = { type: String(req.connector_type), entity: String(req.entity) };
  sb.faults.begin(key.type, key.entity);
  try {
    const fault = sb.faults.take(key.type, key.entity);
    if (fault !== undefined && (await applyFault(fault, res))) return;
    send(res, 200, sb.execute(req, { textOnly: true, nullCursor: fault?.kind === 'null_cursor' }));
  } finally {
    sb.faults.end(key.type, key.entity);
  }
}

const CONTROL_KEYS = new Set(['connector_type', 'entity', 'scope', 'config']);

/** replication_config fields for the union over config partitions: body `config`, else other query params. */
function configOf(body: Record<string, unknown>, url: URL): Record<string, unknown> | undefined {
  if (typeof body.config === 'object' && body.config !== null) return body.config as Record<string, unknown>;
  const pairs = [...url.searchParams.entries()].filter(([k]) => !CONTROL_KEYS.has(k));
  return pairs.length === 0 ? undefined : Object.fromEntries(pairs);
}

async function control(sb: Sandbox, route: string, body: Record<string, unknown>, url: URL): Promise<unknown> {
  const type = String(body.connector_type ?? url.searchParams.get('connector_type') ?? '');
  const entity = String(body.entity ?? url.searchParams.get('entity') ?? '');
  const rawScope = body.scope ?? url.searchParams.get('scope') ?? undefined;
  const scope = rawScope === undefined || rawScope === null ? undefined : String(rawScope);
  switch (route) {
    case 'POST /v1/control/configure': {
      const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);
      sb.configure({
        ...(type === '' ? {} : { connectorType: type }),
        ...(entity === '' ? {} : { entity }),
        ...(num(body.size) === undefined ? {} : { size: num(body.size) }),
        ...(num(body.seed) === undefined ? {} : { seed: num(body.seed) }),
        ...(num(body.default_size) === undefined ? {} : { defaultSize: num(body.default_size) }),
        ...(num(body.nested_size) === undefined ? {} : { nestedSize: num(body.nested_size) }),
      });
      return { ok: true };
    }
    case 'POST /v1/control/faults':
      sb.faults.arm(body as unknown as FaultSpec);
      return { ok: true };
    case 'DELETE /v1/control/faults':
      sb.faults.clear();
      return { ok: true };
    case 'POST /v1/control/mutate':
      return sb.mutate(type, entity, body as { create?: number; update?: number; delete?: number }, scope ?? '');
    case 'GET /v1/control/records': {
      // Without a scope: the union over every partition that exists (config ones as given).
      const config = configOf(body, url);
      return sb.records(type, entity, { ...(scope === undefined ? {} : { scope }), ...(config === undefined ? {} : { config }) });
    }
    default:
      throw new AppError('not_found', `no route ${route}`);
  }
}

/** Starts the sandbox runtime on `port` (0 = any); `token`, when set, is required as Bearer. */
export async function startSandboxServer(opts: { port: number; host?: string; token?: string; sandbox?: Sandbox }): Promise<{ url: string; sandbox: Sandbox; close(): Promise<void> }> {
  const sb = opts.sandbox ?? new Sandbox();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const route = `${req.method ?? 'GET'} ${url.pathname}`;
    void (async () => {
      try {
        if (route === 'GET /healthz') return send(res, 200, { ok: true });
        if (opts.token !== undefined && req.headers.authorization !== `Bearer ${opts.token}`) {
          throw new AppError('unauthorized', 'missing or wrong runtime token');
        }
        const body = req.method === 'POST' ? await readJson(req) : {};
        if (route === 'POST /v1/execute') return await execute(sb, body, res);
        send(res, 200, await control(sb, route, body, url));
      } catch (e) {
        const err = isAppError(e) ? e : new AppError('internal', 'sandbox failure');
        send(res, STATUS[err.code] ?? 500, { error: err.toJSON() });
      }
    })();
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(opts.port, opts.host ?? '127.0.0.1', resolve));
  const addr = server.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : opts.port;
  return {
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    sandbox: sb,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
