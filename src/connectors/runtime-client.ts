/**
 * Client of the connector runtime protocol (DESIGN §4). Turns every failure into an AppError
 * that says whether a retry can help: 429 (with Retry-After) and 5xx/timeouts/resets are
 * retryable; 400/401/403/404 are not and carry the upstream's message.
 */
import { AppError } from '../errors.js';

/** One action call. */
export interface RuntimeCall {
  readonly connectorType: string;
  readonly credentials: Record<string, unknown>;
  readonly entity: string;
  readonly action: 'list' | 'api_search';
  readonly params: Record<string, unknown>;
}

/** A page as the runtime returns it. */
export interface RuntimePage {
  readonly data: unknown;
  readonly meta: Record<string, unknown>;
}

/** What the worker needs from a runtime; the HTTP client is the one implementation. */
export interface ConnectorRuntime {
  execute(call: RuntimeCall, signal?: AbortSignal): Promise<RuntimePage>;
}

/** Options of the HTTP runtime client. */
export interface RuntimeClientOptions {
  readonly baseUrl: string;
  readonly token?: string | undefined;
  readonly timeoutMs: number;
}

function retryAfterSeconds(header: string | null): number {
  if (header === null) return 1;
  const n = Number(header);
  if (Number.isFinite(n) && n >= 0) return Math.min(n, 3600);
  const at = Date.parse(header);
  return Number.isNaN(at) ? 1 : Math.max(0, Math.min(3600, Math.ceil((at - Date.now()) / 1000)));
}

async function upstreamMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') return body.error.message;
  } catch {
    /* not JSON */
  }
  return text.slice(0, 300) || res.statusText;
}

async function toError(res: Response): Promise<AppError> {
  const message = await upstreamMessage(res);
  const opts = { upstreamStatus: res.status };
  if (res.status === 429) {
    return new AppError('rate_limited', `upstream rate limit: ${message}`, { ...opts, retryable: true, retryAfterSec: retryAfterSeconds(res.headers.get('retry-after')) });
  }
  // 408 (request timeout) and 425 (too early) say "try again", like a 5xx.
  if (res.status >= 500 || res.status === 408 || res.status === 425) return new AppError('upstream_error', `upstream ${res.status}: ${message}`, { ...opts, retryable: true });
  return new AppError('upstream_error', `upstream ${res.status}: ${message}`, opts);
}

function parsePage(text: string): RuntimePage {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (cause) {
    throw new AppError('upstream_error', 'runtime returned a truncated or malformed body', { retryable: true, cause });
  }
  const b = body as { data?: unknown; meta?: unknown };
  if (typeof body !== 'object' || body === null || b.data === undefined) {
    throw new AppError('upstream_error', 'runtime response has no "data"', { retryable: true });
  }
  const meta = typeof b.meta === 'object' && b.meta !== null ? (b.meta as Record<string, unknown>) : {};
  return { data: b.data, meta };
}

/** HTTP client of `POST {baseUrl}/v1/execute`. */
export class HttpConnectorRuntime implements ConnectorRuntime {
  constructor(private readonly opts: RuntimeClientOptions) {}

  async execute(call: RuntimeCall, signal?: AbortSignal): Promise<RuntimePage> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.opts.token !== undefined) headers.authorization = `Bearer ${this.opts.token}`;
    const body = JSON.stringify({ connector_type: call.connectorType, credentials: call.credentials, entity: call.entity, action: call.action, params: call.params });
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.opts.baseUrl}/v1/execute`, { method: 'POST', headers, body, signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]) });
      if (!res.ok) throw await toError(res);
      text = await res.text();
    } catch (e) {
      if (e instanceof AppError) throw e;
      if (signal?.aborted === true) throw new AppError('unavailable', 'runtime call aborted', { retryable: true, cause: e });
      const what = timeout.aborted ? `timed out after ${this.opts.timeoutMs} ms` : `failed: ${(e as Error).message}`;
      throw new AppError('upstream_error', `runtime call ${what}`, { retryable: true, cause: e });
    }
    return parsePage(text);
  }
}
