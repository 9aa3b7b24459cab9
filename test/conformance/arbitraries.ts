/**
 * fast-check arbitraries for the property tests: records of the conformance target with missing
 * fields, nulls, wrong JSON types, arrays, nested objects, unicode and `%`/`_`/`\` in strings,
 * and filters/sorts over them drawn from the same small value pools (so filters do match).
 */
import fc from 'fast-check';

const WORDS = ['ada', 'adah', 'lovelace', 'Lovelock', 'grace', 'ZOË', 'zoe', 'müller', 'data', 'a', 'x_y', '100%', 'back\\slash', '😀', 'é', 'Z', ''];
export const str = fc.oneof(
  fc.constantFrom(...WORDS),
  fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' ')),
  fc.string({ unit: fc.constantFrom('a', 'B', 'é', 'Ö', '%', '_', '\\', ' ', '-', '😀', '1'), maxLength: 6 }),
);
/** A like pattern whose last backslash escapes nothing (an odd run of them at the end) is invalid_query. */
const loneEscapeAtEnd = (v: string): boolean => (/\\+$/.exec(v)?.[0].length ?? 0) % 2 === 1;
const int = fc.integer({ min: -3, max: 6 });
const num = fc.oneof(int, fc.constantFrom(0.5, -1.25, 2.5, 1e3));
const scalar = fc.oneof(str, num, fc.boolean(), fc.constant(null));
const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null, freq: 5 });

/** Field → value arbitrary; a field may also be missing (see record). */
const FIELDS: Record<string, fc.Arbitrary<unknown>> = {
  name: fc.oneof({ weight: 6, arbitrary: maybe(str) }, { weight: 1, arbitrary: num }),
  email: maybe(str),
  age: fc.oneof({ weight: 6, arbitrary: maybe(int) }, { weight: 1, arbitrary: str }),
  balance: maybe(num),
  active: fc.oneof({ weight: 6, arbitrary: maybe(fc.boolean()) }, { weight: 1, arbitrary: int }),
  address: maybe(fc.record({ city: fc.oneof(maybe(str), fc.array(str, { maxLength: 2 })), zip: maybe(int) }, { requiredKeys: [] })),
  tags: fc.oneof({ weight: 5, arbitrary: fc.array(maybe(str), { maxLength: 3 }) }, { weight: 1, arbitrary: str }),
  scores: fc.array(num, { maxLength: 3 }),
  orders: fc.array(fc.record({ sku: fc.constantFrom('A-1', 'B-2', 'c'), qty: int, note: maybe(str) }, { requiredKeys: ['sku'] }), { maxLength: 3 }),
};

/** A dataset of records with unique ids. */
export const dataset = fc
  .array(fc.record(FIELDS, { requiredKeys: [] }), { minLength: 0, maxLength: 14 })
  .map((docs) => docs.map((d, i) => ({ id: `id${String(i).padStart(2, '0')}${i % 3 === 0 ? 'é' : ''}`, doc: { ...d } })));

const stringField = fc.constantFrom('name', 'email');
const textPath = fc.constantFrom('name', 'email', 'tags', 'address.city');
const comparable = fc.oneof(fc.tuple(fc.constant('age'), int), fc.tuple(fc.constantFrom('balance', 'scores', 'address.zip'), num), fc.tuple(fc.constantFrom('name', 'email', 'address.city', 'tags'), str));

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.tuple(fc.constantFrom('eq', 'neq'), fc.oneof(fc.tuple(stringField, maybe(str)), fc.tuple(fc.constantFrom('age'), maybe(int)), fc.tuple(fc.constantFrom('active'), maybe(fc.boolean())), fc.tuple(fc.constantFrom('tags', 'address.city', 'address.zip'), scalar))).map(([op, [p, v]]) => ({ [op]: { [p]: v } })),
  fc.tuple(fc.constantFrom('gt', 'gte', 'lt', 'lte'), comparable).map(([op, [p, v]]) => ({ [op]: { [p]: v } })),
  fc.tuple(fc.constantFrom('name', 'age'), fc.array(scalar, { maxLength: 3 })).map(([p, vs]) => ({ in: { [p]: p === 'age' ? vs.filter((v) => v === null || Number.isInteger(v)) : vs.filter((v) => v === null || typeof v === 'string') } })),
  // Long lists (past the Postgres backend's 32-value `or`): padded with values no record holds.
  fc.tuple(fc.constantFrom('name', 'age', 'tags', 'address.city'), fc.array(scalar, { maxLength: 3 })).map(([p, vs]) => {
    const pad = Array.from({ length: 33 }, (_, i) => (p === 'age' ? 9000 + i : `pad-${i}`));
    const kept = p === 'age' ? vs.filter((v) => v === null || Number.isInteger(v)) : p === 'name' ? vs.filter((v) => v === null || typeof v === 'string') : vs;
    return { in: { [p]: [...kept, ...pad] } };
  }),
  fc.tuple(textPath, fc.oneof(str, fc.constantFrom('%', 'a%', '%a_', '\\%', '_%_', '%\\\\%'))).map(([p, v]) => ({ like: { [p]: loneEscapeAtEnd(v) ? `${v}x` : v } })),
  fc.tuple(fc.constantFrom('fuzzy', 'keyword'), textPath, fc.constantFrom('ada', 'lovelace', 'zoe müller', 'data grace', 'adah', 'x', 'lovelock ada')).map(([op, p, v]) => ({ [op]: { [p]: v } })),
  fc.tuple(fc.constantFrom('tags', 'scores'), scalar).map(([p, v]) => ({ contains: { [p]: v ?? 'ada' } })),
);

const anyNode = fc.oneof(
  fc.constantFrom('A-1', 'B-2', 'c').map((s) => ({ eq: { sku: s } })),
  fc.integer({ min: 0, max: 5 }).map((n) => ({ gt: { qty: n } })),
  fc.constantFrom('ada', 'lovelace').map((t) => ({ fuzzy: { note: t } })),
);

/** A random valid filter tree, depth ≤ 3. */
export const filter: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, leaf, tie('combo'), fc.array(anyNode, { minLength: 1, maxLength: 2 }).map((fs) => ({ any: { orders: fs.length === 1 ? fs[0] : { and: fs } } }))),
  combo: fc.oneof(
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((fs) => ({ and: fs })),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((fs) => ({ or: fs })),
    tie('node').map((x) => ({ not: x })),
  ),
})).node;

/** 0–2 sort keys over scalar-typed fields (and an object sub-path). */
export const sort = fc.uniqueArray(fc.constantFrom('name', 'email', 'age', 'balance', 'active', 'address.zip', 'id'), { maxLength: 2 }).chain((paths) =>
  fc.tuple(...paths.map((p) => fc.constantFrom('asc', 'desc').map((d) => ({ [p]: d })))),
);
