/**
 * How the reference evaluator reads a document (DESIGN §6), the model every backend matches:
 *
 * - A path resolves by own keys: the root field, then each `.key` segment, stepping only into
 *   plain JSON objects. Stepping into anything else (array, scalar, null) gives "missing".
 * - The CANDIDATES of a value are what comparisons look at: missing → none; an array → its
 *   elements (one level); anything else → the value itself. So on arrays a comparison holds when
 *   any element satisfies it, for catalog array fields and for dynamic values alike.
 * - A value is PRESENT when it has a non-null candidate. Thus missing, null, `[]` and `[null]` are
 *   all "absent": `eq null` matches them, `neq null` matches everything else.
 */
import type { FieldPath, Scalar } from '../dsl/ast.js';

/** A JSON object (not null, not an array). */
export function isJsonObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `obj[key]` for an own key of a JSON object, else undefined (missing). */
export function ownValue(obj: unknown, key: string): unknown {
  return isJsonObject(obj) && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** The value at `path` in `doc`, or undefined when missing. */
export function resolvePath(doc: unknown, path: FieldPath): unknown {
  return [path.field, ...path.sub].reduce<unknown>((cur, key) => ownValue(cur, key), doc);
}

/** What comparisons look at: none for missing, the elements of an array, else the value. */
export function candidates(value: unknown): readonly unknown[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value;
  return [value];
}

/** True when the value has at least one non-null candidate. */
export function isPresent(value: unknown): boolean {
  return candidates(value).some((c) => c !== null);
}

/** JSON equality of a candidate with a non-null scalar: same JSON type and same value. */
export function equalsScalar(candidate: unknown, value: string | number | boolean): boolean {
  return typeof candidate === typeof value && candidate === value;
}

/** `eq` semantics: null ≡ absent; otherwise some candidate equals the value. */
export function eqHolds(value: unknown, expected: Scalar): boolean {
  if (expected === null) return !isPresent(value);
  return candidates(value).some((c) => equalsScalar(c, expected));
}
