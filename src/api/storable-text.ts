/**
 * Postgres cannot store U+0000, nor an unpaired UTF-16 surrogate (`"\ud800"` in JSON), in text or
 * jsonb: a body carrying one would pass our validators and fail in the database as a 500.
 * Refused up front instead, naming where it is.
 */
import { AppError, joinPath } from '../errors.js';
import { badBodyCode } from './error-mapper.js';

const MAX_DEPTH = 64;
/** With the `u` flag a well-formed pair is one code point; only a lone surrogate is category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

/** Why a string cannot be stored, or null. */
function flaw(s: string): string | null {
  if (s.includes('\u0000')) return 'strings cannot contain the NUL character (\\u0000)';
  if (LONE_SURROGATE.test(s)) return 'strings must be valid Unicode: an unpaired surrogate (such as \\ud800) cannot be stored';
  return null;
}

type Hit = { readonly path: string; readonly why: string };

const printable = (key: string): string => key.replaceAll('\u0000', '\\u0000').replace(/\p{Cs}/gu, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

function findFlaw(value: unknown, path: string, depth: number): Hit | null {
  if (typeof value === 'string') {
    const why = flaw(value);
    return why === null ? null : { path, why };
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findFlaw(value[i], joinPath(path, i), depth + 1);
      if (hit !== null) return hit;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    const here = joinPath(path, printable(key));
    const why = flaw(key);
    if (why !== null) return { path: here, why };
    const hit = findFlaw(v, here, depth + 1);
    if (hit !== null) return hit;
  }
  return null;
}

/** Where a value holds a string or key Postgres cannot store, and why; null when nowhere. */
export function unstorableAt(value: unknown): { path: string; why: string } | null {
  return findFlaw(value, '', 0);
}

/**
 * Throws when a request body holds a string or key Postgres cannot store. On the execute endpoint
 * a flaw inside `params` is an `invalid_query` with its path relative to `params`, like every other
 * search error; one in `entity` or `action` is an `invalid_request`, as any other flaw there is.
 */
export function rejectUnstorable(body: unknown, url: string): void {
  const hit = findFlaw(body, '', 0);
  if (hit === null) return;
  const inQuery = badBodyCode(url) === 'invalid_query' && hit.path.startsWith('params.');
  throw new AppError(inQuery ? 'invalid_query' : 'invalid_request', hit.why, { path: inQuery ? hit.path.slice('params.'.length) : hit.path });
}
