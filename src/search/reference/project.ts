/**
 * `data` of a hit (DESIGN §6 "fields"): without `fields`, the record's searchable fields (those
 * present); with `fields`, only the selected paths that exist, rebuilt as nested objects. A path
 * whose ancestor is also selected adds nothing (the ancestor's whole value is already there).
 */
import type { SearchTarget } from '../dsl/ast.js';
import { isJsonObject, ownValue } from './values.js';

type Path = readonly string[];

/** Projects one document; made once per search ({@link projector}). `kept`: the paths it keeps. */
export type Projector = ((doc: Readonly<Record<string, unknown>>) => Record<string, unknown>) & { readonly kept: readonly Path[] };

/**
 * The projection of a search's hits. The kept paths are worked out once, not per hit: a page of
 * 50 customers compared 31 paths with each other for every hit (a quarter of the in-process
 * time of a 50-hit search, with the property definitions below).
 */
export function projector(target: SearchTarget, fields: readonly Path[] | null): Projector {
  const kept = keptPaths(target, fields);
  const project = (doc: Readonly<Record<string, unknown>>): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (const path of kept) {
      const value = path.length === 1 ? ownValue(doc, path[0] as string) : path.reduce<unknown>((cur, key) => ownValue(cur, key), doc);
      if (value !== undefined) setPath(out, path, value);
    }
    return out;
  };
  return Object.assign(project, { kept });
}

/** The paths a projection keeps: `fields`, or every searchable field; none under another kept one. */
function keptPaths(target: SearchTarget, fields: readonly Path[] | null): readonly Path[] {
  const all = fields ?? Object.keys(target.searchable).map((name) => [name]);
  return all.filter((path) => !all.some((other) => isStrictPrefix(other, path)));
}

export function projectDoc(target: SearchTarget, fields: readonly Path[] | null, doc: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return projector(target, fields)(doc);
}

function isStrictPrefix(prefix: Path, path: Path): boolean {
  return prefix.length < path.length && prefix.every((seg, i) => seg === path[i]);
}

/**
 * Sets an own property. Plain assignment to `__proto__` would set the prototype instead, so that
 * key alone is defined; every other key is assigned, which keeps the object in V8's fast mode
 * (defining each property made dictionary objects, slower to build and to serialize).
 */
function put(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

function setPath(out: Record<string, unknown>, path: Path, value: unknown): void {
  let cur = out;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i] as string;
    const next = ownValue(cur, key);
    const child = isJsonObject(next) ? next : {};
    put(cur, key, child);
    cur = child;
  }
  put(cur, path[path.length - 1] as string, value);
}
