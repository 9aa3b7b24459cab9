/**
 * `data` of a hit (DESIGN §6 "fields"): without `fields`, the record's searchable fields (those
 * present); with `fields`, only the selected paths that exist, rebuilt as nested objects. A path
 * whose ancestor is also selected adds nothing (the ancestor's whole value is already there).
 */
import type { SearchTarget } from '../dsl/ast.js';
import { isJsonObject, ownValue } from './values.js';

export function projectDoc(
  target: SearchTarget,
  fields: readonly (readonly string[])[] | null,
  doc: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const paths = fields ?? Object.keys(target.searchable).map((name) => [name]);
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    if (paths.some((other) => isStrictPrefix(other, path))) continue;
    const value = path.reduce<unknown>((cur, key) => ownValue(cur, key), doc);
    if (value !== undefined) setPath(out, path, value);
  }
  return out;
}

function isStrictPrefix(prefix: readonly string[], path: readonly string[]): boolean {
  return prefix.length < path.length && prefix.every((seg, i) => seg === path[i]);
}

/** Defines an own property: plain assignment to `__proto__` would set the prototype instead. */
function put(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function setPath(out: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let cur = out;
  path.slice(0, -1).forEach((key) => {
    const next = ownValue(cur, key);
    const child = isJsonObject(next) ? next : {};
    put(cur, key, child);
    cur = child;
  });
  put(cur, path[path.length - 1] as string, value);
}
