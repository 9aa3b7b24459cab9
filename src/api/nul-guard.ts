/**
 * Postgres cannot store U+0000 in text or jsonb: a body carrying one would pass our validators
 * and fail in the database as a 500. Refused up front instead, naming where it is.
 */
import { AppError, joinPath } from '../errors.js';

const MAX_DEPTH = 64;

function findNul(value: unknown, path: string, depth: number): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findNul(value[i], joinPath(path, i), depth + 1);
      if (hit !== null) return hit;
    }
    return null;
  }
  for (const [key, v] of Object.entries(value)) {
    const here = joinPath(path, key.replaceAll('\u0000', '\\u0000'));
    if (key.includes('\u0000')) return here;
    const hit = findNul(v, here, depth + 1);
    if (hit !== null) return hit;
  }
  return null;
}

/**
 * Throws when a request body holds U+0000 in a string or key. On the execute endpoint the path
 * is relative to `params`, like every other search error.
 */
export function rejectNul(body: unknown, url: string): void {
  const search = url.split('?')[0]?.endsWith('/execute') === true;
  const hit = findNul(body, '', 0);
  if (hit === null) return;
  const path = search && hit.startsWith('params.') ? hit.slice('params.'.length) : hit;
  throw new AppError(search ? 'invalid_query' : 'invalid_request', 'strings cannot contain the NUL character (\\u0000)', { path });
}
