/**
 * Parses `query.filter` into a FilterNode (DESIGN §6). A filter is a JSON object whose keys are
 * operators; several keys are ANDed (an `and` node, keys in the caller's order). A simple operator
 * maps exactly one field path to a value. Bounds: nesting depth ≤ 16 filter objects (the top
 * filter is depth 1; each `not`/`and`/`or`/`any` operand adds one), ≤ 500 operator keys in all.
 */
import { joinPath } from '../../errors.js';
import type { FieldPath, FilterNode } from './ast.js';
import { SEARCH_LIMITS } from './ast.js';
import { fail, isPlainObject, jsonTypeName } from './fail.js';
import { likeTokens } from './like.js';
import { resolveElementPath } from './paths.js';
import { queryTerms } from './text.js';
import { checkAnyTarget, compareValue, containsValue, equalityValue, inValues, textValue } from './values.js';

export const FILTER_OPERATORS = Object.freeze([
  'eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'like', 'fuzzy', 'keyword', 'contains', 'any', 'not', 'and', 'or',
] as const);

/** How paths resolve where the filter sits (entity fields, or `any` element keys) + the node count. */
interface Ctx {
  readonly resolve: (raw: string, errPath: string) => FieldPath;
  readonly count: { nodes: number };
}

/** Parses a filter object at `errPath`; `resolve` turns entity-level dot paths into FieldPaths. */
export function parseFilter(raw: unknown, errPath: string, resolve: Ctx['resolve']): FilterNode {
  return parseNode(raw, errPath, 1, { resolve, count: { nodes: 0 } });
}

function parseNode(raw: unknown, errPath: string, depth: number, ctx: Ctx): FilterNode {
  if (depth > SEARCH_LIMITS.maxDepth) {
    fail('invalid_query', `filter is nested deeper than ${SEARCH_LIMITS.maxDepth} levels`, errPath);
  }
  if (!isPlainObject(raw)) {
    fail('invalid_query', `a filter must be an object whose keys are operators, got ${jsonTypeName(raw)}`, errPath);
  }
  const keys = Object.keys(raw);
  if (keys.length === 0) {
    fail('invalid_query', `a filter must have at least one operator (${FILTER_OPERATORS.join(', ')})`, errPath);
  }
  const nodes = keys.map((op) => {
    ctx.count.nodes += 1;
    const opPath = joinPath(errPath, op);
    if (ctx.count.nodes > SEARCH_LIMITS.maxNodes) {
      fail('invalid_query', `filter has more than ${SEARCH_LIMITS.maxNodes} operators`, opPath);
    }
    return parseOperator(op, raw[op], opPath, depth, ctx);
  });
  if (nodes.length === 1) return nodes[0] as FilterNode;
  // JSON key order means nothing: the implicit `and` takes its operators in one order (by name),
  // so a client re-emitting the same filter with its keys reordered keeps its cursor valid.
  const byOperator = keys.map((k, i) => [k, nodes[i] as FilterNode] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { op: 'and', filters: byOperator.map(([, n]) => n) };
}

function parseOperator(op: string, operand: unknown, opPath: string, depth: number, ctx: Ctx): FilterNode {
  switch (op) {
    case 'and':
    case 'or':
      return { op, filters: parseList(op, operand, opPath, depth, ctx) };
    case 'not':
      return { op, filter: parseNode(operand, opPath, depth + 1, ctx) };
    case 'any':
      return parseAny(operand, opPath, depth, ctx);
    case 'eq': case 'neq': case 'gt': case 'gte': case 'lt': case 'lte':
    case 'in': case 'like': case 'fuzzy': case 'keyword': case 'contains':
      return parseSimple(op, operand, opPath, ctx);
    default:
      return fail('invalid_query', `unknown operator "${op}"; expected one of: ${FILTER_OPERATORS.join(', ')}`, opPath);
  }
}

function parseList(op: 'and' | 'or', operand: unknown, opPath: string, depth: number, ctx: Ctx): FilterNode[] {
  if (!Array.isArray(operand)) fail('invalid_query', `${op} takes a non-empty array of filters, got ${jsonTypeName(operand)}`, opPath);
  if (operand.length === 0) fail('invalid_query', `${op} takes a non-empty array of filters, got []`, opPath);
  return operand.map((item, i) => parseNode(item, joinPath(opPath, i), depth + 1, ctx));
}

/** The one `{path: value}` entry of a simple operator or of `any`. */
function singleEntry(op: string, operand: unknown, opPath: string): [string, unknown] {
  if (!isPlainObject(operand)) {
    fail('invalid_query', `${op} takes an object mapping one field path to a value, got ${jsonTypeName(operand)}`, opPath);
  }
  const entries = Object.entries(operand);
  if (entries.length !== 1) {
    const got = entries.length === 0 ? 'none' : `${entries.length} (${entries.map(([k]) => k).join(', ')})`;
    fail('invalid_query', `${op} must map exactly one field path to a value, got ${got}; combine conditions with "and"`, opPath);
  }
  return entries[0] as [string, unknown];
}

function parseAny(operand: unknown, opPath: string, depth: number, ctx: Ctx): FilterNode {
  const [key, inner] = singleEntry('any', operand, opPath);
  const valuePath = joinPath(opPath, key);
  const path = ctx.resolve(key, valuePath);
  checkAnyTarget(path, valuePath);
  const elementCtx: Ctx = { resolve: resolveElementPath, count: ctx.count };
  return { op: 'any', path, filter: parseNode(inner, valuePath, depth + 1, elementCtx) };
}

type SimpleOp = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'like' | 'fuzzy' | 'keyword' | 'contains';

function parseSimple(op: SimpleOp, operand: unknown, opPath: string, ctx: Ctx): FilterNode {
  const [key, value] = singleEntry(op, operand, opPath);
  const valuePath = joinPath(opPath, key);
  const path = ctx.resolve(key, valuePath);
  switch (op) {
    case 'eq':
    case 'neq':
      return { op, path, value: equalityValue(op, path, value, valuePath) };
    case 'gt': case 'gte': case 'lt': case 'lte':
      return { op, path, value: compareValue(op, path, value, valuePath) };
    case 'in':
      return { op, path, values: inValues(path, value, valuePath) };
    case 'contains':
      return { op, path, value: containsValue(path, value, valuePath) };
    case 'like':
      return { op, path, pattern: likePattern(path, value, valuePath) };
    case 'fuzzy':
    case 'keyword':
      return textNode(op, path, value, valuePath);
  }
}

function likePattern(path: FieldPath, value: unknown, valuePath: string): string {
  const pattern = textValue('like', path, value, valuePath);
  if (likeTokens(pattern) === null) {
    fail('invalid_query', 'like pattern ends with a lone escape "\\"; write "\\\\" for a literal backslash', valuePath);
  }
  return pattern;
}

function textNode(op: 'fuzzy' | 'keyword', path: FieldPath, value: unknown, valuePath: string): FilterNode {
  const text = textValue(op, path, value, valuePath);
  const terms = queryTerms(text);
  if (terms.length === 0) fail('invalid_query', `${op} text has no words (letters or digits)`, valuePath);
  return { op, path, text, terms };
}

/** How many `fuzzy`/`keyword` operators a filter holds, at any depth (also under `not`). */
export function countTextNodes(node: FilterNode): number {
  switch (node.op) {
    case 'fuzzy':
    case 'keyword':
      return 1;
    case 'and':
    case 'or':
      return node.filters.reduce((n, f) => n + countTextNodes(f), 0);
    case 'not':
    case 'any':
      return countTextNodes(node.filter);
    default:
      return 0;
  }
}

/** True when the filter holds a `fuzzy` or `keyword` node anywhere (also under `not`). */
export const hasTextNode = (node: FilterNode): boolean => countTextNodes(node) > 0;
