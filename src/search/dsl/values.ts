/**
 * Value checks of simple operators against the path's type (DESIGN §6 "Types"). A value that
 * does not fit is `type_mismatch`; a bound violation (string length, `in` size) is
 * `invalid_query`. `dynamic` paths (object sub-paths, `any` elements) accept any JSON scalar:
 * the value's own JSON type decides how it compares.
 */
import type { CompareOp, FieldPath, Scalar } from './ast.js';
import { SEARCH_LIMITS } from './ast.js';
import { codePointLength, fail, jsonTypeName } from './fail.js';

const describe = (path: FieldPath): string =>
  path.type === 'dynamic' ? `"${[path.field, ...path.sub].join('.')}"` : `${path.type} field "${path.field}"`;

function mismatch(message: string, errPath: string): never {
  return fail('type_mismatch', message, errPath);
}

/** Strings are bounded to `maxString` code points everywhere in a query. */
export function checkStringBound(s: string, errPath: string): void {
  if (codePointLength(s) > SEARCH_LIMITS.maxString) {
    fail('invalid_query', `string is longer than ${SEARCH_LIMITS.maxString} characters`, errPath);
  }
}

/** A JSON scalar: string, finite number, boolean or null. */
export function isScalar(v: unknown): v is Scalar {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

/** Whether a non-null scalar fits a root type (`array`/`dynamic` take any scalar). */
function fitsType(path: FieldPath, v: string | number | boolean): boolean {
  switch (path.type) {
    case 'string':
      return typeof v === 'string';
    case 'int':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    case 'object':
      return false;
    case 'array':
    case 'dynamic':
      return true;
  }
}

/** `eq`/`neq`/`in` values and `contains` elements: a scalar fitting the type, or null. */
export function equalityValue(op: string, path: FieldPath, v: unknown, errPath: string): Scalar {
  if (!isScalar(v)) mismatch(`${op} on ${describe(path)} takes a scalar or null, got ${jsonTypeName(v)}`, errPath);
  if (v === null) return v;
  if (path.type === 'object') {
    mismatch(`object field "${path.field}" only takes ${op} null; compare its keys with a sub-path like "${path.field}.key"`, errPath);
  }
  if (!fitsType(path, v)) mismatch(`${op} on ${describe(path)} takes ${expected(path)}, got ${jsonTypeName(v)}`, errPath);
  if (typeof v === 'string') checkStringBound(v, errPath);
  return v;
}

function expected(path: FieldPath): string {
  if (path.type === 'int') return 'an integer';
  if (path.type === 'number') return 'a number';
  if (path.type === 'boolean') return 'a boolean';
  return 'a string';
}

/** `gt`/`gte`/`lt`/`lte` bounds: numbers or strings, never null or boolean. */
export function compareValue(op: CompareOp, path: FieldPath, v: unknown, errPath: string): string | number {
  if (path.type === 'boolean' || path.type === 'object') {
    mismatch(`${op} does not apply to ${describe(path)}; ${path.type} fields take eq, neq${path.type === 'boolean' ? ' and in' : ' null'}`, errPath);
  }
  const ok = typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
  if (!ok) mismatch(`${op} on ${describe(path)} takes a number or a string, got ${jsonTypeName(v)}`, errPath);
  if (!fitsType(path, v)) mismatch(`${op} on ${describe(path)} takes ${expected(path)}, got ${jsonTypeName(v)}`, errPath);
  if (typeof v === 'string') checkStringBound(v, errPath);
  return v;
}

/** `in` values: an array of at most `maxIn` equality values (`[]` is valid and matches nothing). */
export function inValues(path: FieldPath, v: unknown, errPath: string): Scalar[] {
  if (path.type === 'object') mismatch(`in does not apply to object field "${path.field}"; use eq null or a sub-path`, errPath);
  if (!Array.isArray(v)) fail('invalid_query', `in takes an array of values, got ${jsonTypeName(v)}`, errPath);
  if (v.length > SEARCH_LIMITS.maxIn) {
    fail('invalid_query', `in takes at most ${SEARCH_LIMITS.maxIn} values, got ${v.length}`, errPath);
  }
  return v.map((item, i) => equalityValue('in', path, item, `${errPath}[${i}]`));
}

/** `like`/`fuzzy`/`keyword` text: a string, on string or array (of strings) fields. */
export function textValue(op: string, path: FieldPath, v: unknown, errPath: string): string {
  if (path.type !== 'string' && path.type !== 'array' && path.type !== 'dynamic') {
    mismatch(`${op} only applies to string fields and arrays of strings, not to ${describe(path)}`, errPath);
  }
  if (typeof v !== 'string') mismatch(`${op} on ${describe(path)} takes a string, got ${jsonTypeName(v)}`, errPath);
  checkStringBound(v, errPath);
  return v;
}

/** `contains` value: a non-null scalar, on array fields only. */
export function containsValue(path: FieldPath, v: unknown, errPath: string): Scalar {
  if (path.type !== 'array' && path.type !== 'dynamic') {
    mismatch(`contains only applies to array fields, not to ${describe(path)}; use eq`, errPath);
  }
  if (v === null) mismatch('contains takes a non-null scalar; use eq null for a missing or null array', errPath);
  return equalityValue('contains', path, v, errPath);
}

/** `any` applies to arrays (of objects) only. */
export function checkAnyTarget(path: FieldPath, errPath: string): void {
  if (path.type !== 'array' && path.type !== 'dynamic') {
    mismatch(`any only applies to array fields, not to ${describe(path)}`, errPath);
  }
}
