/**
 * Filter AST → OpenSearch query, operator by operator with the reference evaluator's semantics
 * (reference/match.ts, score.ts). Paths resolve in a SCOPE: the record (flat slots `sx.f.<field>`
 * for string/int/number/boolean fields, nested entries `sx.x` for object/array fields and every
 * sub-path) or one element of an `any` (its entries `<elements>.x`). An entry query is a nested
 * query on the scope's entries with the entry's path `k`; each path has one entry per scope, so
 * "some candidate satisfies" becomes "the entry's multi-valued field has a matching value".
 *
 * Scoring mirrors score.ts: text nodes score (compile-text.ts), `and` sums its scored children
 * (`must`) and ignores the others (`filter`), `or` sums the matching scored branches, `not` and
 * every other operator score 0 (filter context), `any` keeps the best element (score_mode max).
 */
import { AppError } from '../../errors.js';
import type { CompareOp, FieldPath, FilterNode, Scalar } from '../dsl/ast.js';
import { pathSegments } from '../dsl/paths.js';
import { likeQuery, textQuery } from './compile-text.js';
import { ANY_DEPTH, entriesPath, entryKey, isFlatType, ROOT, slotPrefix } from './names.js';
import { bool, MATCH_NONE, nested, range, scoreZero, term, terms, type Compiled, type Query } from './query-dsl.js';

/** Where paths resolve. */
export interface Scope {
  /** Nested path of the scope's entries: `sx.x` (record) or `<entry>.e.x` (element). */
  readonly entries: string;
  /** 0 for the record, n inside n levels of `any`. */
  readonly level: number;
  /** The tag the searching connector's words carry in the index (names.ts `wordTag`; empty in format 1). */
  readonly wordTag: string;
}

export const RECORD_SCOPE: Scope = { entries: entriesPath(ROOT), level: 0, wordTag: '' };

/**
 * The slot a path reads: its field prefix, and for an entry the term selecting the entry's path
 * (`keyTerm`; null for a flat slot, which belongs to the record itself).
 */
export interface SlotRef {
  readonly prefix: string;
  readonly keyTerm: Query | null;
}

const unscored = (query: Query): Compiled => ({ query, scored: false });

export function slotRef(scope: Scope, path: FieldPath): SlotRef {
  if (scope.level === 0 && path.sub.length === 0 && isFlatType(path.type)) {
    return { prefix: slotPrefix(path.field), keyTerm: null };
  }
  return { prefix: scope.entries, keyTerm: term(`${scope.entries}.k`, entryKey([path.field, ...path.sub])) };
}

/** A predicate on a slot as a predicate on the scope: entries need their nested query. */
function wrap(ref: SlotRef, pred: Compiled): Compiled {
  if (ref.keyTerm === null) return pred;
  const query = pred.scored
    ? nested(ref.prefix, bool({ filter: [ref.keyTerm], must: [pred.query] }), 'max')
    : nested(ref.prefix, bool({ filter: [ref.keyTerm, pred.query] }), 'none');
  return { query, scored: pred.scored };
}

/** The subfield holding candidates of the value's JSON type. */
function valueField(prefix: string, v: string | number | boolean): string {
  return `${prefix}.${typeof v === 'number' ? 'n' : typeof v === 'string' ? 's' : 'b'}`;
}

function not(c: Compiled): Compiled {
  return unscored(bool({ must_not: [c.query] }));
}

function present(ref: SlotRef): Compiled {
  return wrap(ref, unscored(term(`${ref.prefix}.p`, true)));
}

/** eq: null ≡ absent; otherwise a candidate of the same JSON type and value. */
function eqNode(ref: SlotRef, v: Scalar): Compiled {
  if (v === null) return not(present(ref));
  return wrap(ref, unscored(term(valueField(ref.prefix, v), v)));
}

/** in: eq of any value, grouped into one `terms` per JSON type; `[]` matches nothing. */
function inNode(ref: SlotRef, values: readonly Scalar[]): Compiled {
  const byField = new Map<string, (string | number | boolean)[]>();
  for (const v of values) {
    if (v === null) continue;
    const field = valueField(ref.prefix, v);
    byField.set(field, [...(byField.get(field) ?? []), v]);
  }
  const parts: Query[] = [];
  const typed = [...byField].map(([field, vs]) => terms(field, vs));
  if (typed.length > 0) parts.push(wrap(ref, unscored(typed.length === 1 ? (typed[0] as Query) : bool({ should: typed }))).query);
  if (values.includes(null)) parts.push(not(present(ref)).query);
  if (parts.length === 0) return unscored(MATCH_NONE);
  return unscored(parts.length === 1 ? (parts[0] as Query) : bool({ should: parts }));
}

/** gt..lte: only candidates of the bound's JSON type (`n` or `s`), absent never matches. */
function compareNode(ref: SlotRef, op: CompareOp, v: string | number): Compiled {
  return wrap(ref, unscored(range(valueField(ref.prefix, v), op, v)));
}

/** contains: the value is an array (`a`) holding an equal element. */
function containsNode(ref: SlotRef, v: Scalar): Compiled {
  if (v === null) return unscored(MATCH_NONE);
  return wrap(ref, unscored(bool({ filter: [term(`${ref.prefix}.a`, true), term(valueField(ref.prefix, v), v)] })));
}

/** any: one object element (nested `e`) satisfies the inner filter, best element's score. */
function anyNode(scope: Scope, node: Extract<FilterNode, { op: 'any' }>): Compiled {
  const ref = slotRef(scope, node.path);
  if (ref.keyTerm === null) return unscored(MATCH_NONE); // a scalar-typed field has no elements to test
  if (scope.level >= ANY_DEPTH) {
    throw new AppError('invalid_query', `"any" on ${pathSegments(node.path).join('.')} is nested deeper than the ${ANY_DEPTH} levels the OpenSearch index supports`, { path: 'query.filter' });
  }
  const elements = `${ref.prefix}.e`;
  const inner = compileFilter(node.filter, { ...scope, entries: entriesPath(elements), level: scope.level + 1 });
  return wrap(ref, { query: nested(elements, inner.query, inner.scored ? 'max' : 'none'), scored: inner.scored });
}

function andNode(children: readonly Compiled[]): Compiled {
  const scored = children.filter((c) => c.scored).map((c) => c.query);
  const rest = children.filter((c) => !c.scored).map((c) => c.query);
  return { query: bool({ must: scored, filter: rest }), scored: scored.length > 0 };
}

function orNode(children: readonly Compiled[]): Compiled {
  const scored = children.some((c) => c.scored);
  return { query: bool({ should: children.map((c) => (scored ? scoreZero(c) : c.query)) }), scored };
}

/** Compiles a filter node in a scope. */
export function compileFilter(node: FilterNode, scope: Scope = RECORD_SCOPE): Compiled {
  switch (node.op) {
    case 'and':
      return andNode(node.filters.map((f) => compileFilter(f, scope)));
    case 'or':
      return orNode(node.filters.map((f) => compileFilter(f, scope)));
    case 'not':
      return not(compileFilter(node.filter, scope));
    case 'any':
      return anyNode(scope, node);
    default:
      return compileLeaf(node, slotRef(scope, node.path), scope.wordTag);
  }
}

type Leaf = Exclude<FilterNode, { op: 'and' | 'or' | 'not' | 'any' }>;

function compileLeaf(node: Leaf, ref: SlotRef, wordTag: string): Compiled {
  switch (node.op) {
    case 'eq':
      return eqNode(ref, node.value);
    case 'neq':
      return node.value === null ? present(ref) : not(eqNode(ref, node.value));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return compareNode(ref, node.op, node.value);
    case 'in':
      return inNode(ref, node.values);
    case 'like': {
      const q = likeQuery(ref.prefix, node.pattern);
      return q === null ? unscored(MATCH_NONE) : wrap(ref, unscored(q));
    }
    case 'fuzzy':
    case 'keyword':
      return wrap(ref, { query: textQuery(ref.prefix, node, wordTag), scored: true });
    case 'contains':
      return containsNode(ref, node.value);
  }
}
