/**
 * Filter AST → Postgres boolean expression over an index row (`doc` and its text `shadow`).
 * Mirrors the reference evaluator (src/search/reference): candidates are the value or, for an
 * array, its elements; text operators read the shadow written at index time. Every value and
 * every path segment is a bound parameter; no identifier is ever interpolated.
 */
import { sql, type RawBuilder } from 'kysely';
import type { FieldPath, FilterNode, Scalar } from '../dsl/ast.js';
import { anchoredLikeTokens } from '../dsl/like.js';

type Sql = RawBuilder<unknown>;

/** Where paths resolve: the row (top level) or one element of an `any` array. */
export interface RowContext {
  readonly doc: Sql;
  readonly shadow: Sql;
  /** Only for a whole record (not an `any` element): its id column and lookup-indexed fields. */
  readonly row?: { readonly recordId: Sql; readonly keys: Sql; readonly idField: string; readonly lookup: readonly string[] };
  /** How many `any` levels enclose this context: each level's alias is its own, or an inner one would capture the outer's. */
  readonly depth?: number;
  /** Words written out in place ({@link wordsOf}), not through `sx_words`: true for filters with few text operators. */
  readonly inlineWords: boolean;
}

/** The context of one element of an `any` array, aliased `alias` (with ordinality `i`). */
export function elementContext(outer: RowContext, shadow: Sql, alias: string): RowContext {
  return { doc: sql.ref(`${alias}.e`), shadow: sql`(${shadow} -> (${sql.ref(`${alias}.i`)} - 1)::int)`, depth: (outer.depth ?? 0) + 1, inlineWords: outer.inlineWords };
}

/** An alias unique to the `any` level it names (`a1`, `a2`, ... under `prefix` `a`). */
export const levelAlias = (outer: RowContext, prefix: string): string => `${prefix}${(outer.depth ?? 0) + 1}`;

export const TRUE = sql`true`;
export const FALSE = sql`false`;

/** The JSON value at a path, stepping only into objects (like the evaluator's resolvePath). */
export function valueAt(root: Sql, path: FieldPath): Sql {
  const segments = [path.field, ...path.sub];
  // Plain identifiers are inlined so the expression is a constant that expression indexes
  // (entity-indexes.ts) can match; anything else stays a bound parameter. Not `null`: unquoted in
  // an array literal it is SQL NULL, and `#>` answers NULL for any path holding one.
  if (segments.every((s) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(s) && !/^null$/i.test(s))) return sql`(${root} #> ${sql.lit(`{${segments.join(',')}}`)}::text[])`;
  // `#>` indexes into arrays on any segment Postgres reads as an integer (`7`, `-1`, `+0`,
  // ` 0`); the contract steps into objects only.
  if (!segments.some((s) => /^\s*[+-]?\d/.test(s))) return sql`(${root} #> ${segments}::text[])`;
  return segments.reduce<Sql>((cur, seg) => sql`(case when jsonb_typeof(${cur}) = 'object' then ${cur} -> ${seg}::text end)`, root);
}

/**
 * Some candidate of a JSON value satisfies `pred` (none when missing; the elements of an array).
 * A scalar or object value is tested directly: the set-returning form only runs for arrays,
 * which keeps scans of plain fields several times cheaper.
 */
export function someCandidate(value: Sql, pred: (e: Sql) => Sql): Sql {
  const e = sql.ref('c.e');
  return sql`(case when ${value} is null then false
    when jsonb_typeof(${value}) = 'array' then exists (select 1 from jsonb_array_elements(${value}) as c(e) where ${pred(e)})
    else coalesce(${pred(value)}, false) end)`;
}

/** The value has a non-null candidate. */
export function isPresent(value: Sql): Sql {
  return someCandidate(value, (e) => sql`jsonb_typeof(${e}) <> 'null'`);
}

/** `{field: {sub: ... value}}`: the containment probe for a path. */
export function nest(path: FieldPath, value: unknown): string {
  return JSON.stringify([path.field, ...path.sub].reduceRight<unknown>((inner, key) => ({ [key]: inner }), value));
}

/**
 * `on @> probe` on the record's `keys` for a lookup field (never NULL: v1 rows have none), else on
 * the document. A string value's test on the document is hidden from the planner's estimates
 * ({@link unestimated}): the word index already requires the value's words (word-index.ts), and
 * estimating `data @>` itself evaluated it against the column's sampled documents at every
 * planning, 0.3–2 ms of a rare `eq` that runs in 0.4 (bench/README.md, session 24).
 */
function contains(ctx: RowContext, path: FieldPath, probes: readonly string[], value: Scalar): Sql {
  const lookup = ctx.row?.lookup.includes(path.field) === true;
  const on = lookup ? (ctx.row as NonNullable<RowContext['row']>).keys : ctx.doc;
  const any = sql`(${sql.join(probes.map((p) => sql`${on} @> ${p}::jsonb`), sql` or `)})`;
  if (lookup) return sql`(${on} is not null and ${any})`;
  return typeof value === 'string' ? unestimated(any) : any;
}

/**
 * A condition the planner takes as it is, without estimating it from column statistics: it rates
 * a CASE at a flat one half. Only for conditions whose selectivity another clause of the same
 * search already carries. `cond` is never NULL here, so the CASE has the same truth value.
 */
export function unestimated(cond: Sql): Sql {
  return sql`(case when ${cond} then true else false end)`;
}

/**
 * Some candidate equals `v`: the value at the path is `v`, or an array holding `v`. Containment
 * says exactly that (it steps only through objects, and a nested array never contains a bare
 * scalar). On a lookup field it is tested on the record's `keys`, which a GIN index answers; on
 * the id field the primary key narrows the rows first.
 */
function eqContainment(ctx: RowContext, path: FieldPath, v: Exclude<Scalar, null>): Sql {
  const holds = contains(ctx, path, [nest(path, v), nest(path, [v])], v);
  if (ctx.row === undefined || path.field !== ctx.row.idField || path.sub.length > 0 || typeof v === 'boolean') return holds;
  // Record ids are the id field's value as text: a cheap, exact pre-filter.
  return sql`(${ctx.row.recordId} = ${String(v)} and ${holds})`;
}

function eqHolds(ctx: RowContext, path: FieldPath, v: Scalar): Sql {
  if (v === null) return sql`not ${isPresent(valueAt(ctx.doc, path))}`;
  return eqContainment(ctx, path, v);
}

const CMP = { gt: sql`>`, gte: sql`>=`, lt: sql`<`, lte: sql`<=` } as const;

function compareHolds(ctx: RowContext, path: FieldPath, op: keyof typeof CMP, bound: string | number): Sql {
  return someCandidate(valueAt(ctx.doc, path), (e) =>
    typeof bound === 'number'
      ? // CASE, not AND: Postgres may evaluate the cast before the type test.
        sql`(case when jsonb_typeof(${e}) = 'number' then (${e})::numeric ${CMP[op]} ${String(bound)}::numeric else false end)`
      : sql`(case when jsonb_typeof(${e}) = 'string' then (${e} #>> '{}') collate "C" ${CMP[op]} ${bound}::text collate "C" else false end)`,
  );
}

/** Up to this many values, an `in` is an `or` of containments (what the lookup GIN answers). */
const SMALL_IN = 32;

/**
 * Some candidate is one of `values`. A short list is an `or` of containments, which the lookup
 * GIN answers value by value. A long one is ONE array parameter tested against each candidate
 * (`= any(...)`, which Postgres hashes): two parameters per value hit the protocol's
 * 65,535-parameter cap at 40 lists of 1,000 under one `or`, a filter the contract allows, and
 * 2,000 containment probes per row are far slower than a hash lookup. jsonb equality is the
 * reference's: same JSON type, numbers by value. On the id field the ids narrow the rows first.
 */
function inHolds(ctx: RowContext, path: FieldPath, values: readonly Scalar[]): Sql {
  const present = values.filter((v): v is Exclude<Scalar, null> => v !== null);
  const parts: Sql[] = present.length <= SMALL_IN ? present.map((v) => eqContainment(ctx, path, v)) : [longInHolds(ctx, path, present)];
  if (present.length < values.length) parts.push(sql`not ${isPresent(valueAt(ctx.doc, path))}`);
  return parts.length === 0 ? FALSE : sql`(${sql.join(parts, sql` or `)})`;
}

function longInHolds(ctx: RowContext, path: FieldPath, present: readonly Exclude<Scalar, null>[]): Sql {
  const member = someCandidate(valueAt(ctx.doc, path), (e) => sql`${e} = any(${present.map((v) => JSON.stringify(v))}::jsonb[])`);
  const byId = ctx.row !== undefined && path.field === ctx.row.idField && path.sub.length === 0 && present.every((v) => typeof v !== 'boolean');
  // Record ids are the id field's value as text (see eqContainment): a pre-filter the primary key answers.
  return byId ? sql`(${(ctx.row as NonNullable<RowContext['row']>).recordId} = any(${present.map(String)}::text[]) and ${member})` : member;
}

/** Translates a contract `like` pattern into a Postgres LIKE pattern over lower-cased text. */
export function likePattern(pattern: string): string | null {
  const tokens = anchoredLikeTokens(pattern.toLowerCase());
  if (tokens === null) return null;
  return tokens.map((t) => (t.kind === 'any' ? '%' : t.kind === 'one' ? '_' : /[%_\\]/.test(t.char) ? `\\${t.char}` : t.char)).join('');
}

/**
 * The words of a string value (`text[]`): its shadow's when it has one, else split in SQL (ASCII:
 * `[a-z0-9]` runs are exactly the reference's words). With `inline`, migration 0002's `sx_words`
 * written out in place: a SQL function whose body holds a sub-select is never inlined by the
 * planner, and calling it cost about 10 µs a row (a keyword filter over 1,000 records: 12.3 ms
 * through the function, 5.5 ms inline). Written out, a value's expression appears four times, and
 * an `or` repeats its branches in the score: filters with many text operators at the contract's
 * bounds grew past the statement limit, so they call the function.
 */
export function wordsOf(v: Sql, s: Sql, inline: boolean): Sql {
  if (!inline) return sql`sx_words(${v}, ${s})`;
  return sql`(case when jsonb_typeof(${s}) = 'object' then array(select jsonb_array_elements_text(${s} -> 'w'))
    when jsonb_typeof(${v}) = 'string' then array_remove(regexp_split_to_array(lower((${v} #>> '{}') collate "C"), '[^a-z0-9]+'), '') end)`;
}

/**
 * Some string candidate satisfies `pred(value, shadow)`. Candidates come from the document; each
 * is paired with its shadow (the same position in a shadow array), which `sx_lower`/{@link wordsOf}
 * read when present and replace with an exact SQL computation for ASCII strings otherwise.
 */
export function someText(ctx: RowContext, path: FieldPath, pred: (v: Sql, s: Sql) => Sql): Sql {
  const value = valueAt(ctx.doc, path);
  const shadow = valueAt(ctx.shadow, path);
  return sql`(case when ${value} is null then false
    when jsonb_typeof(${value}) = 'array' then exists (select 1 from jsonb_array_elements(${value}) with ordinality as c(e, i)
      where jsonb_typeof(c.e) = 'string' and ${pred(sql.ref('c.e'), sql`(${shadow} -> (c.i - 1)::int)`)})
    else (jsonb_typeof(${value}) = 'string' and coalesce(${pred(value, shadow)}, false)) end)`;
}

function likeHolds(ctx: RowContext, path: FieldPath, pattern: string): Sql {
  const p = likePattern(pattern);
  if (p === null) return FALSE;
  return someText(ctx, path, (v, s) => sql`sx_lower(${v}, ${s}) like ${p}`);
}

function containsHolds(ctx: RowContext, path: FieldPath, v: Scalar): Sql {
  if (v === null) return FALSE;
  return contains(ctx, path, [nest(path, [v])], v);
}

/** The elements of an array-of-objects value, each with its shadow, for `any`. */
function anyHolds(ctx: RowContext, path: FieldPath, inner: FilterNode): Sql {
  const value = valueAt(ctx.doc, path);
  const a = levelAlias(ctx, 'a');
  const el = elementContext(ctx, valueAt(ctx.shadow, path), a);
  return sql`exists (select 1 from jsonb_array_elements(case when jsonb_typeof(${value}) = 'array' then ${value} else '[]'::jsonb end) with ordinality as ${sql.id(a)}(e, i) where jsonb_typeof(${sql.ref(`${a}.e`)}) = 'object' and ${compileFilter(inner, el)})`;
}

/**
 * Every term has a word it matches: exact, prefix or within its edit budget (`sx_fuzzy_score`,
 * migration 0013, the reference's qualities). The terms bind as ONE array parameter, however many
 * there are: a 1,024-character text stays one bind parameter.
 */
function fuzzyHolds(ctx: RowContext, path: FieldPath, terms: readonly string[]): Sql {
  return someText(ctx, path, (v, s) => sql`sx_fuzzy_score(${wordsOf(v, s, ctx.inlineWords)}, ${[...terms]}::text[]) > 0`);
}

function keywordHolds(ctx: RowContext, path: FieldPath, terms: readonly string[]): Sql {
  return someText(ctx, path, (v, s) => sql`(${wordsOf(v, s, ctx.inlineWords)} && ${[...terms]}::text[])`);
}

/** Compiles a filter node to a boolean SQL expression (never NULL). */
export function compileFilter(node: FilterNode, ctx: RowContext): Sql {
  switch (node.op) {
    case 'and':
      return sql`(${sql.join(node.filters.map((f) => compileFilter(f, ctx)), sql` and `)})`;
    case 'or':
      return sql`(${sql.join(node.filters.map((f) => compileFilter(f, ctx)), sql` or `)})`;
    case 'not':
      return sql`(not ${compileFilter(node.filter, ctx)})`;
    case 'eq':
      return eqHolds(ctx, node.path, node.value);
    case 'neq':
      return sql`(not ${eqHolds(ctx, node.path, node.value)})`;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return compareHolds(ctx, node.path, node.op, node.value);
    case 'in':
      return inHolds(ctx, node.path, node.values);
    case 'like':
      return likeHolds(ctx, node.path, node.pattern);
    case 'fuzzy':
      return fuzzyHolds(ctx, node.path, node.terms);
    case 'keyword':
      return keywordHolds(ctx, node.path, node.terms);
    case 'contains':
      return containsHolds(ctx, node.path, node.value);
    case 'any':
      return anyHolds(ctx, node.path, node.filter);
  }
}
