/**
 * Relevance in SQL, term for term the reference evaluator's score.ts: fuzzy = best string's sum
 * of term qualities, keyword = best string's count of terms found, and = sum, or = sum of the
 * matching branches, not = 0, any = best matching element, other operators 0. All values are
 * sums of powers of two, so float8 arithmetic gives the evaluator's exact numbers.
 */
import { sql, type RawBuilder } from 'kysely';
import type { FieldPath, FilterNode, TextOp } from '../dsl/ast.js';
import { compileFilter, elementContext, levelAlias, valueAt, wordsOf, type RowContext } from './compile-filter.js';

type Sql = RawBuilder<unknown>;
type TextNode = Extract<FilterNode, { op: TextOp }>;

const ZERO = sql`0::float8`;

/**
 * The best score of `fn` (a score over one string's words and the terms, 0 when the string does
 * not match) among the string candidates of a path: the value, or the elements of an array.
 */
function bestStringScore(ctx: RowContext, node: TextNode, fn: 'sx_fuzzy_score' | 'sx_keyword_score'): Sql {
  const value = valueAt(ctx.doc, node.path);
  const shadow = valueAt(ctx.shadow, node.path);
  const terms = sql`${[...node.terms]}::text[]`;
  const f = sql.raw(fn);
  return sql`(case when jsonb_typeof(${value}) = 'string' then ${f}(${wordsOf(value, shadow, ctx.inlineWords)}, ${terms})
    when jsonb_typeof(${value}) = 'array' then coalesce((select max(${f}(${wordsOf(sql.ref('c.e'), sql`(${shadow} -> (c.i - 1)::int)`, ctx.inlineWords)}, ${terms}))
      from jsonb_array_elements(${value}) with ordinality as c(e, i) where jsonb_typeof(c.e) = 'string'), 0)
    else 0 end)::float8`;
}

function anyScore(ctx: RowContext, node: Extract<FilterNode, { op: 'any' }>): Sql {
  const value = valueAt(ctx.doc, node.path);
  const a = levelAlias(ctx, 'sa');
  const el = elementContext(ctx, valueAt(ctx.shadow, node.path), a);
  return sql`coalesce((select max(${matchedScore(node.filter, el)}) from jsonb_array_elements(case when jsonb_typeof(${value}) = 'array' then ${value} else '[]'::jsonb end) with ordinality as ${sql.id(a)}(e, i)
      where jsonb_typeof(${sql.ref(`${a}.e`)}) = 'object' and ${compileFilter(node.filter, el)}), 0)::float8`;
}

/** Score of a node for a row already known to match it. */
export function matchedScore(node: FilterNode, ctx: RowContext): Sql {
  switch (node.op) {
    case 'and':
      return sql`(${sql.join(node.filters.map((f) => matchedScore(f, ctx)), sql` + `)})`;
    case 'or':
      return sql`(${sql.join(node.filters.map((f) => sql`(case when ${compileFilter(f, ctx)} then ${matchedScore(f, ctx)} else 0 end)`), sql` + `)})`;
    case 'fuzzy':
      return bestStringScore(ctx, node, 'sx_fuzzy_score');
    case 'keyword':
      return bestStringScore(ctx, node, 'sx_keyword_score');
    case 'any':
      return anyScore(ctx, node);
    default:
      return ZERO;
  }
}

/**
 * A filter's top-level `fuzzy`/`keyword` conjuncts, and the conjuncts left (null: none). Such a
 * node holds exactly when its score is above 0 (a string's fuzzy score is a sum of qualities
 * above 0, its keyword score a count of terms found, both 0 when it does not match), so a ranked
 * page can compute each node's words once, for its score, and filter on that score.
 */
export function textConjuncts(filter: FilterNode): { readonly text: readonly TextNode[]; readonly rest: FilterNode | null } {
  const all = filter.op === 'and' ? filter.filters : [filter];
  const text = all.filter((f): f is TextNode => f.op === 'fuzzy' || f.op === 'keyword');
  const rest = all.filter((f) => f.op !== 'fuzzy' && f.op !== 'keyword');
  return { text, rest: rest.length === 0 ? null : rest.length === 1 ? (rest[0] as FilterNode) : { op: 'and', filters: rest } };
}
