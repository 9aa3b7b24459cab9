/** Shared helpers of the sandbox unit tests. */
import { expect } from 'vitest';
import { AppError } from '../../../src/errors.js';
import type { ListResponse } from '../../../src/sandbox/serve-list.js';
import type { Sandbox } from '../../../src/sandbox/sandbox.js';

/** One call as a list answers it: a get's single record comes back as a one-record page. */
export function call(sb: Sandbox, kind: string, entity: string, params: Record<string, unknown> = {}, action?: string): ListResponse {
  const def = sb.kind(kind).entities[entity];
  const res = sb.execute({ connector_type: kind, credentials: { api_key: 'k' }, entity, action: action ?? def?.read?.action ?? 'list', params });
  return Array.isArray(res.data) ? (res as ListResponse) : { data: [res.data], meta: res.meta };
}

/** The AppError a call throws (fails the test when it does not throw one). */
export function failure(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected the call to fail');
}

/** Asserts a 400 (`invalid_request`) naming `param`. */
export function expect400(fn: () => unknown, param: string, message?: RegExp): void {
  const e = failure(fn);
  expect(e.code).toBe('invalid_request');
  expect(e.path).toBe(`params.${param}`);
  expect(e.message).toContain(param);
  if (message !== undefined) expect(e.message).toMatch(message);
}
