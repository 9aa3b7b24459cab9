/**
 * Relevance in SQL, term for term the reference evaluator's score.ts: fuzzy = best string's sum
 * of term qualities, keyword = best string's count of terms found, and = sum, or = sum of the
 * matching branches, not = 0, any = best matching element, other operators 0. All values are
 * sums of powers of two, so float8 arithmetic gives the evaluator's exact numbers.
 */
import { sql, type RawBuilder } from 'kysely';
import type { FieldPath, FilterNode, TextOp } from '../dsl/ast.js';
import { compileFilter, elementContext, levelAlias, valueAt, type RowContext } from './compile-filter.js';

type Sql = RawBuilder<unknown>;
type TextNode = Extract<FilterNode, { op: TextOp }>;

const ZERO = sql`0::float8`;

/**
 * `from` item of a value's string candidates with their words: `<alias>(e, i)` plus `<alias>w.w`,
 * the words (text[]) of each, from its shadow or computed for ASCII (see someText).
 */
function wordsOf(ctx: RowContext, path: FieldPath, alias: string): Sql {
  const value = valueAt(ctx.doc, path);
  const shadow = valueAt(ctx.shadow, path);
  const c = sql.id(alias);
  const own = sql`case when jsonb_typeof(${value}) = 'array' then ${shadow} -> (${c}.i - 1)::int else ${shadow} end`;
  return sql`jsonb_array_elements(case when ${value} is null then '[]'::jsonb when jsonb_typeof(${value}) = 'array' then ${value} else jsonb_build_array(${value}) end) with ordinality as ${c}(e, i)
    cross join lateral (select sx_words(${c}.e, ${own}) as w) as ${sql.id(`${alias}w`)}
    where jsonb_typeof(${c}.e) = 'string'`;
}

/** Best string's sum of term qualities, among strings where every term matches (one array parameter). */
function fuzzyScore(ctx: RowContext, node: TextNode): Sql {
  return sql`coalesce((select max(x.total) from (
      select sum(b.best) as total, min(b.best) as worst
        from (select fs.i, fsw.w from ${wordsOf(ctx, node.path, 'fs')}) as s
        cross join lateral (select (select coalesce(max(sx_term_quality(q.t, w.w)), 0) from unnest(s.w) as w(w)) as best
                              from unnest(${[...node.terms]}::text[]) as q(t)) b
       group by s.i) x
      where x.worst > 0), 0)::float8`;
}

/** Best string's count of terms among its words (one array parameter). */
function keywordScore(ctx: RowContext, node: TextNode): Sql {
  return sql`coalesce((select max((select count(*) from unnest(${[...node.terms]}::text[]) as q(t) where q.t = any(ksw.w))) from ${wordsOf(ctx, node.path, 'ks')}), 0)::float8`;
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
      return fuzzyScore(ctx, node);
    case 'keyword':
      return keywordScore(ctx, node);
    case 'any':
      return anyScore(ctx, node);
    default:
      return ZERO;
  }
}
