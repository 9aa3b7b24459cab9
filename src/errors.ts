/** Stable, snake_case error codes; the HTTP mapper owns their status codes. */
export type ErrorCode =
  | 'invalid_request'
  | 'invalid_query'
  | 'unknown_field'
  | 'type_mismatch'
  | 'invalid_cursor'
  | 'entity_not_searchable'
  | 'action_not_supported'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'rate_limited'
  | 'unavailable'
  | 'upstream_error'
  | 'config_invalid'
  | 'internal';

/** Options of an {@link AppError}. */
export interface AppErrorOptions {
  path?: string;
  retryable?: boolean;
  /** Seconds the caller should wait before retrying (429 / Retry-After). */
  retryAfterSec?: number;
  /** HTTP status of an upstream response that caused this error. */
  upstreamStatus?: number;
  /**
   * What failed underneath (a socket error, an engine's reason), which may name hosts, indexes
   * or internals: for logs and operators (a run's error), never in a tenant's answer.
   */
  detail?: string;
  cause?: unknown;
}

/** The one error family: data with a code, a human message and the offending path. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly path: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterSec: number | undefined;
  readonly upstreamStatus: number | undefined;
  readonly detail: string | undefined;

  constructor(code: ErrorCode, message: string, opts: AppErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'AppError';
    this.code = code;
    this.path = opts.path;
    this.retryable = opts.retryable ?? false;
    this.retryAfterSec = opts.retryAfterSec;
    this.upstreamStatus = opts.upstreamStatus;
    this.detail = opts.detail;
  }

  /** The JSON body sent to clients: never a stack, never a cause. */
  toJSON(): { code: ErrorCode; message: string; path?: string } {
    return this.path === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, path: this.path };
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** An error as a log field: code, message and, for operators, the detail underneath. */
export function errorLog(e: unknown): { code?: ErrorCode; message: string; detail?: string } {
  if (!isAppError(e)) return { message: e instanceof Error ? e.message : String(e) };
  return e.detail === undefined ? { code: e.code, message: e.message } : { code: e.code, message: e.message, detail: e.detail };
}

/** Joins a JSON path the way error messages show it: `query.filter.and[2].like.email`. */
export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return base === '' ? key : `${base}.${key}`;
}
