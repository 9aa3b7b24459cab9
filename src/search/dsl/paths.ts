/**
 * Field paths of the search DSL. A path is a searchable field, optionally followed by `.key`
 * segments into an OBJECT field (`address.city`); those sub-paths are typed `dynamic`.
 * Searchable names may themselves contain dots: the longest searchable prefix is the root.
 * Inside `any`, paths are relative to the array element: any non-empty segments, typed `dynamic`.
 */
import type { FieldType } from '../../connectors/catalog/types.js';
import type { FieldPath, SearchTarget } from './ast.js';
import { SEARCH_LIMITS } from './ast.js';
import { codePointLength, fail } from './fail.js';

/** Lists the searchable fields for `unknown_field` messages. */
export function searchableList(target: SearchTarget): string {
  return Object.keys(target.searchable).sort().join(', ');
}

/** Splits a dot path into segments; empty segments and over-long paths are `invalid_query`. */
export function splitDotPath(raw: string, errPath: string): string[] {
  if (raw === '') fail('invalid_query', 'a field path must not be empty', errPath);
  if (codePointLength(raw) > SEARCH_LIMITS.maxString) {
    fail('invalid_query', `field path is longer than ${SEARCH_LIMITS.maxString} characters`, errPath);
  }
  const segments = raw.split('.');
  if (segments.some((s) => s === '')) {
    fail('invalid_query', `field path "${raw}" has an empty segment; write paths like "address.city"`, errPath);
  }
  return segments;
}

function typeOf(target: SearchTarget, name: string): FieldType | undefined {
  return Object.hasOwn(target.searchable, name) ? target.searchable[name] : undefined;
}

function unknownField(target: SearchTarget, name: string, errPath: string): never {
  return fail(
    'unknown_field',
    `"${name}" is not a searchable field of ${target.entity}; searchable fields: ${searchableList(target)}`,
    errPath,
  );
}

/** Builds the FieldPath for a known root; sub-paths only go into object fields (`type_mismatch`). */
function rooted(target: SearchTarget, root: string, sub: string[], errPath: string): FieldPath {
  const type = typeOf(target, root) as FieldType;
  if (sub.length > 0 && type !== 'object') {
    const hint = type === 'array' ? '; use "any" to filter on the elements of an array' : '';
    fail(
      'type_mismatch',
      `"${root}" is ${type === 'array' || type === 'int' ? 'an' : 'a'} ${type} field; only object fields take ".key" sub-paths${hint}`,
      errPath,
    );
  }
  return { field: root, sub, type: sub.length > 0 ? 'dynamic' : type };
}

/** Resolves a dot path against the entity's searchable fields (longest searchable prefix). */
export function resolveDotPath(target: SearchTarget, raw: string, errPath: string): FieldPath {
  const segments = splitDotPath(raw, errPath);
  for (let k = segments.length; k >= 1; k -= 1) {
    const root = segments.slice(0, k).join('.');
    if (typeOf(target, root) !== undefined) return rooted(target, root, segments.slice(k), errPath);
  }
  return unknownField(target, segments[0] as string, errPath);
}

/** Resolves a segment array (`["address","city"]`): the first segment is the root, verbatim. */
export function resolveSegments(target: SearchTarget, segments: readonly string[], errPath: string): FieldPath {
  const [root, ...sub] = segments;
  if (root === undefined) fail('invalid_query', 'a field path must not be empty', errPath);
  if (typeOf(target, root) === undefined) return unknownField(target, root, errPath);
  return rooted(target, root, sub, errPath);
}

/** A path inside `any`: relative to the array element, typed `dynamic`. */
export function resolveElementPath(raw: string, errPath: string): FieldPath {
  const [field, ...sub] = splitDotPath(raw, errPath);
  return { field: field as string, sub, type: 'dynamic' };
}

/** The path as segments (root first), e.g. for `fields` and sort-key identity. */
export function pathSegments(path: FieldPath): string[] {
  return [path.field, ...path.sub];
}
