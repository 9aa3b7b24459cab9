/**
 * Client of the connector runtime protocol (DESIGN §4). Turns every failure into an AppError
 * that says whether a retry can help: 429 (with Retry-After) and 5xx/timeouts/resets are
 * retryable; 400/401/403/404 are not and carry the upstream's message.
 */
import http from 'node:http';
import https from 'node:https';
import { AppError } from '../errors.js';
import { utf8Text } from './utf8-text.js';

/** One action call. */
export interface RuntimeCall {
  readonly connectorType: string;
  readonly credentials: Record<string, unknown>;
  readonly entity: string;
  readonly action: 'list' | 'api_search' | 'get';
  readonly params: Record<string, unknown>;
}

/** A page as the runtime returns it. */
export interface RuntimePage {
  readonly data: unknown;
  readonly meta: Record<string, unknown>;
  /** The page's JSON as it came, when it came over the wire as valid UTF-8: records are stored as these bytes (record-spans.ts). */
  readonly body?: Buffer;
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

/** A whole HTTP answer. */
interface RawResponse {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly body: Buffer;
}

/** Seconds a Retry-After header asks for (capped at an hour); undefined when absent or unreadable, for the caller's backoff to decide. */
function retryAfterSeconds(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const n = Number(header);
  if (Number.isFinite(n) && n >= 0) return Math.min(n, 3600);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.min(3600, Math.ceil((at - Date.now()) / 1000)));
}

function upstreamMessage(res: RawResponse): string {
  const text = res.body.toString('utf8');
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') return body.error.message;
  } catch {
    /* not JSON */
  }
  return text.slice(0, 300) || (http.STATUS_CODES[res.status] ?? `status ${res.status}`);
}

function toError(res: RawResponse): AppError {
  const message = upstreamMessage(res);
  const opts = { upstreamStatus: res.status };
  if (res.status === 429) {
    return new AppError('rate_limited', `upstream rate limit: ${message}`, { ...opts, retryable: true, retryAfterSec: retryAfterSeconds(res.retryAfter) });
  }
  // 408 (request timeout) and 425 (too early) say "try again", like a 5xx.
  if (res.status >= 500 || res.status === 408 || res.status === 425) {
    // A 503 may say when to come back; the page's backoff waits at least that long.
    return new AppError('upstream_error', `upstream ${res.status}: ${message}`, { ...opts, retryable: true, retryAfterSec: retryAfterSeconds(res.retryAfter) });
  }
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

/** Why a call ended early: the caller's signal, or the client's own deadline. */
type Cut = 'aborted' | 'timeout';

/** A call ended early, for {@link HttpConnectorRuntime.executeText} to classify. */
class CallCut extends Error {
  constructor(readonly cut: Cut) {
    super(cut === 'timeout' ? 'the call timed out' : 'the call was aborted');
  }
}

/**
 * POSTs `body` and reads the whole answer. Rejects on network errors, on `signal`'s abort or
 * after `timeoutMs` (a {@link CallCut}), and on a connection closed before the response ended.
 * The deadline is a plain timer, not `AbortSignal.timeout` (with `AbortSignal.any`): those cost
 * the worker 1-3 µs per record of a 100-record page (bench/README.md, session 30).
 */
function post(url: URL, body: string, headers: Record<string, string>, agent: http.Agent, timeoutMs: number, signal: AbortSignal | undefined): Promise<RawResponse> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(new CallCut('aborted'));
    const req = transport.request(url, { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', fail);
      res.on('close', () => {
        if (!res.complete) fail(new Error('the connection closed before the response ended'));
      });
      res.on('end', () => {
        settle();
        const retryAfter = res.headers['retry-after'];
        resolve({ status: res.statusCode ?? 0, retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter, body: Buffer.concat(chunks) });
      });
    });
    // Whatever error the destroyed request then reports, the call ends as cut.
    let cutBy: Cut | null = null;
    const cut = (why: Cut): void => {
      cutBy ??= why;
      req.destroy(new CallCut(why));
    };
    const timer = setTimeout(cut, timeoutMs, 'timeout');
    const onAbort = (): void => cut('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
    function settle(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
    function fail(e: unknown): void {
      settle();
      reject(cutBy === null ? e : new CallCut(cutBy));
    }
    req.on('error', fail);
    req.end(body);
  });
}

/**
 * HTTP client of `POST {baseUrl}/v1/execute`, on node:http with kept-alive connections: the
 * worker reads a page of about 120 KB per call, and `fetch` (undici, web streams) cost about
 * 14 µs more CPU per record than node:http on the same pages (bench/README.md).
 */
export class HttpConnectorRuntime implements ConnectorRuntime {
  private readonly url: URL;
  private readonly agent: http.Agent;

  constructor(private readonly opts: RuntimeClientOptions) {
    this.url = new URL(`${opts.baseUrl.replace(/\/+$/, '')}/v1/execute`);
    // Idle kept-alive sockets are unref'd by the agent: they never hold the process open.
    this.agent = this.url.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  }

  async execute(call: RuntimeCall, signal?: AbortSignal): Promise<RuntimePage> {
    const { body } = await this.respond(call, signal);
    const { text, valid } = utf8Text(body);
    const page = parsePage(text);
    // Bytes that are not valid UTF-8 were decoded with replacement characters: only the text says what was stored.
    return valid ? { ...page, body } : page;
  }

  /** The body of a successful call as the bytes that came, neither decoded nor parsed (errors as {@link execute} throws them). */
  async executeBytes(call: RuntimeCall, signal?: AbortSignal): Promise<Buffer> {
    return (await this.respond(call, signal)).body;
  }

  private async respond(call: RuntimeCall, signal?: AbortSignal): Promise<RawResponse> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.opts.token !== undefined) headers.authorization = `Bearer ${this.opts.token}`;
    const body = JSON.stringify({ connector_type: call.connectorType, credentials: call.credentials, entity: call.entity, action: call.action, params: call.params });
    let res: RawResponse;
    try {
      res = await post(this.url, body, headers, this.agent, this.opts.timeoutMs, signal);
    } catch (e) {
      const cut = e instanceof CallCut ? e.cut : null;
      if (cut === 'aborted' || signal?.aborted === true) throw new AppError('unavailable', 'runtime call aborted', { retryable: true, cause: e });
      const what = cut === 'timeout' ? `timed out after ${this.opts.timeoutMs} ms` : 'failed';
      throw new AppError('upstream_error', `runtime call ${what}`, { retryable: true, detail: (e as Error).message, cause: e });
    }
    if (res.status < 200 || res.status >= 300) throw toError(res);
    return res;
  }
}
