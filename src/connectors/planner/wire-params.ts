/**
 * Params as the runtime takes them. The planner names every param flat, the keys of an object
 * param included (`created.gte`), so partitions, checkpoints and bounds stay plain maps; the
 * reference declares some params as objects with keys ("`created` object: `created.gt`,
 * `created.gte` … int"), which go on the wire nested: `{"created": {"gte": 1767225600}}`.
 */
import type { ParamSpec } from '../catalog/types.js';

type Specs = Readonly<Record<string, ParamSpec>>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The spec of a flat param name: a declared param, or a key of a declared object param (`created.gte`). */
export function paramSpecAt(specs: Specs, name: string): ParamSpec | undefined {
  if (Object.hasOwn(specs, name)) return specs[name];
  const dot = name.indexOf('.');
  if (dot < 0) return undefined;
  const root = Object.hasOwn(specs, name.slice(0, dot)) ? specs[name.slice(0, dot)] : undefined;
  const key = name.slice(dot + 1);
  return root?.keys !== undefined && Object.hasOwn(root.keys, key) ? root.keys[key] : undefined;
}

/** Flat params → wire params: keys of an object param are nested under it; the rest as they are. */
export function toWireParams(specs: Specs, params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    const dot = name.indexOf('.');
    if (dot < 0 || Object.hasOwn(specs, name) || paramSpecAt(specs, name) === undefined) {
      out[name] = value;
      continue;
    }
    const root = name.slice(0, dot);
    out[root] = { ...(isObject(out[root]) ? out[root] : {}), [name.slice(dot + 1)]: value };
  }
  return out;
}

/** Wire params → flat params (the sandbox serves from flat names): the inverse of {@link toWireParams}. */
export function fromWireParams(specs: Specs, params: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(params)) {
    const keys = Object.hasOwn(specs, name) ? specs[name]?.keys : undefined;
    if (keys === undefined || !isObject(value)) out[name] = value;
    else for (const [k, v] of Object.entries(value)) out[`${name}.${k}`] = v;
  }
  return out;
}
