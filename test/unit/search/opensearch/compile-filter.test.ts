/**
 * Golden request bodies of every filter operator (the OpenSearch backend's compiler). The
 * customers fixture has flat slots for name/email/created (string), age (int), balance (number),
 * active (boolean), and nested entries for address (object), tags/scores/orders (array).
 */
import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../../../src/search/opensearch/compile-filter.js';
import { ANY_DEPTH } from '../../../../src/search/opensearch/names.js';
import { expectAppError, parseF } from '../fixtures.js';

/** The compiled query and whether it scores. */
function compiled(filter: unknown) {
  const node = parseF(filter).filter;
  if (node === null) throw new Error('empty filter');
  return compileFilter(node);
}
const q = (filter: unknown) => compiled(filter).query;

/** The nested query of a record-level entry (object/array fields and sub-paths). */
const entry = (path: string[], ...preds: object[]) => ({
  nested: { path: 'sx.x', score_mode: 'none', ignore_unmapped: true, query: { bool: { filter: [{ term: { 'sx.x.k': JSON.stringify(path) } }, ...preds] } } },
});
const notQ = (query: object) => ({ bool: { must_not: [query] } });

describe('eq / neq', () => {
  it('flat slots: the candidates of the value JSON type', () => {
    expect(q({ eq: { name: 'Ann' } })).toEqual({ term: { 'sx.f.name.s': 'Ann' } });
    expect(q({ eq: { age: 42 } })).toEqual({ term: { 'sx.f.age.n': 42 } });
    expect(q({ eq: { balance: 1.5 } })).toEqual({ term: { 'sx.f.balance.n': 1.5 } });
    expect(q({ eq: { active: false } })).toEqual({ term: { 'sx.f.active.b': false } });
    expect(compiled({ eq: { name: 'Ann' } }).scored).toBe(false);
  });

  it('object sub-paths and array fields: the nested entry of that path', () => {
    expect(q({ eq: { 'address.city': 'Paris' } })).toEqual(entry(['address', 'city'], { term: { 'sx.x.s': 'Paris' } }));
    expect(q({ eq: { 'address.zip': 75001 } })).toEqual(entry(['address', 'zip'], { term: { 'sx.x.n': 75001 } }));
    expect(q({ eq: { tags: true } })).toEqual(entry(['tags'], { term: { 'sx.x.b': true } }));
  });

  it('eq null ≡ absent (not present); neq null ≡ present', () => {
    expect(q({ eq: { name: null } })).toEqual(notQ({ term: { 'sx.f.name.p': true } }));
    expect(q({ neq: { name: null } })).toEqual({ term: { 'sx.f.name.p': true } });
    expect(q({ eq: { address: null } })).toEqual(notQ(entry(['address'], { term: { 'sx.x.p': true } })));
    expect(q({ neq: { 'address.city': null } })).toEqual(entry(['address', 'city'], { term: { 'sx.x.p': true } }));
  });

  it('neq x ≡ not eq x, so it matches missing values', () => {
    expect(q({ neq: { email: 'a@b.c' } })).toEqual(notQ({ term: { 'sx.f.email.s': 'a@b.c' } }));
    expect(q({ neq: { 'address.city': 1 } })).toEqual(notQ(entry(['address', 'city'], { term: { 'sx.x.n': 1 } })));
  });
});

describe('gt / gte / lt / lte', () => {
  it('ranges on the candidates of the bound JSON type: n for numbers, s (byte order) for strings', () => {
    expect(q({ gt: { age: 30 } })).toEqual({ range: { 'sx.f.age.n': { gt: 30 } } });
    expect(q({ lte: { balance: -2.5 } })).toEqual({ range: { 'sx.f.balance.n': { lte: -2.5 } } });
    expect(q({ gte: { created: '2024-01-01T00:00:00Z' } })).toEqual({ range: { 'sx.f.created.s': { gte: '2024-01-01T00:00:00Z' } } });
    expect(q({ lt: { 'address.since': 'é' } })).toEqual(entry(['address', 'since'], { range: { 'sx.x.s': { lt: 'é' } } }));
    expect(q({ gt: { scores: 9 } })).toEqual(entry(['scores'], { range: { 'sx.x.n': { gt: 9 } } }));
  });
});

describe('in', () => {
  it('one terms query per JSON type inside one entry, plus absence for null', () => {
    expect(q({ in: { name: ['a', 'b'] } })).toEqual({ terms: { 'sx.f.name.s': ['a', 'b'] } });
    expect(q({ in: { 'address.code': [1, 'x', 2, true, null] } })).toEqual({
      bool: {
        should: [
          entry(['address', 'code'], {
            bool: { should: [{ terms: { 'sx.x.n': [1, 2] } }, { terms: { 'sx.x.s': ['x'] } }, { terms: { 'sx.x.b': [true] } }], minimum_should_match: 1 },
          }),
          notQ(entry(['address', 'code'], { term: { 'sx.x.p': true } })),
        ],
        minimum_should_match: 1,
      },
    });
  });

  it('[] matches nothing; [null] is eq null', () => {
    expect(q({ in: { age: [] } })).toEqual({ match_none: {} });
    expect(q({ in: { age: [null] } })).toEqual(notQ({ term: { 'sx.f.age.p': true } }));
  });
});

describe('like', () => {
  it('substring by default, lower-cased, on the lower-cased strings l', () => {
    expect(q({ like: { email: 'ACME' } })).toEqual({ wildcard: { 'sx.f.email.l': { value: '*acme*' } } });
  });

  it('% → *, _ → ?, escapes kept literal; Lucene metacharacters * ? \\ escaped', () => {
    expect(q({ like: { name: 'J_n%' } })).toEqual({ wildcard: { 'sx.f.name.l': { value: 'j?n*' } } });
    expect(q({ like: { name: '100\\%' } })).toEqual({ wildcard: { 'sx.f.name.l': { value: '*100%*' } } });
    expect(q({ like: { name: 'a*b?c\\\\%' } })).toEqual({ wildcard: { 'sx.f.name.l': { value: 'a\\*b\\?c\\\\*' } } });
    expect(q({ like: { tags: 'v_p' } })).toEqual(entry(['tags'], { wildcard: { 'sx.x.l': { value: 'v?p' } } }));
  });
});

describe('fuzzy', () => {
  it('per term: dis_max of exact 1 / prefix 0.5 / 1 edit 0.5 / 2 edits 0.25 within the AUTO budget; all terms must', () => {
    const cs = (filter: object, boost: number) => ({ constant_score: { filter, boost } });
    const fz = (value: string, fuzziness: number) => ({
      fuzzy: { 'sx.f.name.w': { value, fuzziness, prefix_length: 0, transpositions: false, rewrite: 'constant_score' } },
    });
    const word = (t: string) => [cs({ term: { 'sx.f.name.w': t } }, 1), cs({ prefix: { 'sx.f.name.w': { value: t } } }, 0.5)];
    const { query, scored } = compiled({ fuzzy: { name: 'Jo Anne Marie-Claire' } });
    expect(scored).toBe(true);
    const single = {
      bool: {
        must: [
          { dis_max: { queries: word('jo') } }, // 2 chars: no edits
          { dis_max: { queries: [...word('anne'), cs(fz('anne', 1), 0.5)] } }, // 3–5: one edit
          { dis_max: { queries: [...word('marie'), cs(fz('marie', 1), 0.5)] } },
          { dis_max: { queries: [...word('claire'), cs(fz('claire', 1), 0.5), cs(fz('claire', 2), 0.25)] } }, // 6+: two
        ],
      },
    };
    const groups = JSON.parse(JSON.stringify(single).replaceAll('sx.f.name.w', 'sx.f.name.t.w'));
    expect(query).toEqual({ bool: { should: [single, { nested: { path: 'sx.f.name.t', query: groups, score_mode: 'max', ignore_unmapped: true } }], minimum_should_match: 1 } });
  });
});

describe('keyword', () => {
  it('counts the terms present as words of one string: constant 1 per term', () => {
    const one = (f: string) => ({
      bool: { should: [{ constant_score: { filter: { term: { [f]: 'red' } }, boost: 1 } }, { constant_score: { filter: { term: { [f]: 'car' } }, boost: 1 } }], minimum_should_match: 1 },
    });
    expect(compiled({ keyword: { tags: 'Red car!' } })).toEqual({
      scored: true,
      query: {
        nested: {
          path: 'sx.x',
          score_mode: 'max', ignore_unmapped: true,
          query: {
            bool: {
              filter: [{ term: { 'sx.x.k': '["tags"]' } }],
              must: [{ bool: { should: [one('sx.x.w'), { nested: { path: 'sx.x.t', query: one('sx.x.t.w'), score_mode: 'max', ignore_unmapped: true } }], minimum_should_match: 1 } }],
            },
          },
        },
      },
    });
  });
});

describe('contains', () => {
  it('the value is an array (a) holding an equal element', () => {
    expect(q({ contains: { tags: 'vip' } })).toEqual(entry(['tags'], { bool: { filter: [{ term: { 'sx.x.a': true } }, { term: { 'sx.x.s': 'vip' } }] } }));
    expect(q({ contains: { 'address.codes': 7 } })).toEqual(
      entry(['address', 'codes'], { bool: { filter: [{ term: { 'sx.x.a': true } }, { term: { 'sx.x.n': 7 } }] } }),
    );
  });
});

describe('any', () => {
  it('one element (nested e) satisfies the whole inner filter, its paths relative to the element', () => {
    expect(q({ any: { orders: { and: [{ eq: { sku: 'A-1' } }, { gt: { qty: 1 } }] } } })).toEqual(
      entry(['orders'], {
        nested: {
          path: 'sx.x.e',
          score_mode: 'none', ignore_unmapped: true,
          query: {
            bool: {
              filter: [
                { nested: { path: 'sx.x.e.x', score_mode: 'none', ignore_unmapped: true, query: { bool: { filter: [{ term: { 'sx.x.e.x.k': '["sku"]' } }, { term: { 'sx.x.e.x.s': 'A-1' } }] } } } },
                { nested: { path: 'sx.x.e.x', score_mode: 'none', ignore_unmapped: true, query: { bool: { filter: [{ term: { 'sx.x.e.x.k': '["qty"]' } }, { range: { 'sx.x.e.x.n': { gt: 1 } } }] } } } },
              ],
            },
          },
        },
      }),
    );
  });

  it('with a text operator inside: scored, best element (score_mode max at every level)', () => {
    expect(compiled({ any: { orders: { fuzzy: { 'item.title': 'lamp' } } } })).toMatchInlineSnapshot(`
      {
        "query": {
          "nested": {
            "ignore_unmapped": true,
            "path": "sx.x",
            "query": {
              "bool": {
                "filter": [
                  {
                    "term": {
                      "sx.x.k": "["orders"]",
                    },
                  },
                ],
                "must": [
                  {
                    "nested": {
                      "ignore_unmapped": true,
                      "path": "sx.x.e",
                      "query": {
                        "nested": {
                          "ignore_unmapped": true,
                          "path": "sx.x.e.x",
                          "query": {
                            "bool": {
                              "filter": [
                                {
                                  "term": {
                                    "sx.x.e.x.k": "["item","title"]",
                                  },
                                },
                              ],
                              "must": [
                                {
                                  "bool": {
                                    "minimum_should_match": 1,
                                    "should": [
                                      {
                                        "bool": {
                                          "must": [
                                            {
                                              "dis_max": {
                                                "queries": [
                                                  {
                                                    "constant_score": {
                                                      "boost": 1,
                                                      "filter": {
                                                        "term": {
                                                          "sx.x.e.x.w": "lamp",
                                                        },
                                                      },
                                                    },
                                                  },
                                                  {
                                                    "constant_score": {
                                                      "boost": 0.5,
                                                      "filter": {
                                                        "prefix": {
                                                          "sx.x.e.x.w": {
                                                            "value": "lamp",
                                                          },
                                                        },
                                                      },
                                                    },
                                                  },
                                                  {
                                                    "constant_score": {
                                                      "boost": 0.5,
                                                      "filter": {
                                                        "fuzzy": {
                                                          "sx.x.e.x.w": {
                                                            "fuzziness": 1,
                                                            "prefix_length": 0,
                                                            "rewrite": "constant_score",
                                                            "transpositions": false,
                                                            "value": "lamp",
                                                          },
                                                        },
                                                      },
                                                    },
                                                  },
                                                ],
                                              },
                                            },
                                          ],
                                        },
                                      },
                                      {
                                        "nested": {
                                          "ignore_unmapped": true,
                                          "path": "sx.x.e.x.t",
                                          "query": {
                                            "bool": {
                                              "must": [
                                                {
                                                  "dis_max": {
                                                    "queries": [
                                                      {
                                                        "constant_score": {
                                                          "boost": 1,
                                                          "filter": {
                                                            "term": {
                                                              "sx.x.e.x.t.w": "lamp",
                                                            },
                                                          },
                                                        },
                                                      },
                                                      {
                                                        "constant_score": {
                                                          "boost": 0.5,
                                                          "filter": {
                                                            "prefix": {
                                                              "sx.x.e.x.t.w": {
                                                                "value": "lamp",
                                                              },
                                                            },
                                                          },
                                                        },
                                                      },
                                                      {
                                                        "constant_score": {
                                                          "boost": 0.5,
                                                          "filter": {
                                                            "fuzzy": {
                                                              "sx.x.e.x.t.w": {
                                                                "fuzziness": 1,
                                                                "prefix_length": 0,
                                                                "rewrite": "constant_score",
                                                                "transpositions": false,
                                                                "value": "lamp",
                                                              },
                                                            },
                                                          },
                                                        },
                                                      },
                                                    ],
                                                  },
                                                },
                                              ],
                                            },
                                          },
                                          "score_mode": "max",
                                        },
                                      },
                                    ],
                                  },
                                },
                              ],
                            },
                          },
                          "score_mode": "max",
                        },
                      },
                      "score_mode": "max",
                    },
                  },
                ],
              },
            },
            "score_mode": "max",
          },
        },
        "scored": true,
      }
    `);
  });

  it('any inside any steps one element level deeper; beyond the mapped depth it is refused', () => {
    const inner = q({ any: { orders: { any: { items: { eq: { sku: 'B' } } } } } }) as any;
    const itemLevel = inner.nested.query.bool.filter[1].nested.query.nested;
    expect(itemLevel.path).toBe('sx.x.e.x');
    expect(itemLevel.query.bool.filter[1].nested.path).toBe('sx.x.e.x.e');
    let deep: object = { eq: { sku: 'B' } };
    for (let i = 1; i < ANY_DEPTH; i += 1) deep = { any: { items: deep } };
    expect(() => compiled({ any: { orders: deep } })).not.toThrow();
    expectAppError(() => compiled({ any: { orders: { any: { items: deep } } } }), 'invalid_query', 'query.filter', `deeper than the ${ANY_DEPTH} levels`);
  });
});

describe('not / and / or', () => {
  it('filters only: everything in filter context', () => {
    expect(compiled({ and: [{ eq: { name: 'a' } }, { or: [{ gt: { age: 1 } }, { not: { eq: { active: true } } }] }] })).toEqual({
      scored: false,
      query: {
        bool: {
          filter: [
            { term: { 'sx.f.name.s': 'a' } },
            { bool: { should: [{ range: { 'sx.f.age.n': { gt: 1 } } }, notQ({ term: { 'sx.f.active.b': true } })], minimum_should_match: 1 } },
          ],
        },
      },
    });
  });

  it('and sums scored children (must) and ignores the rest (filter); or wraps unscored branches to score 0; not never scores', () => {
    const kw = (t: string) => compiled({ keyword: { name: t } }).query;
    expect(compiled({ and: [{ keyword: { name: 'x' } }, { eq: { age: 1 } }, { not: { keyword: { name: 'y' } } }] })).toEqual({
      scored: true,
      query: { bool: { must: [kw('x')], filter: [{ term: { 'sx.f.age.n': 1 } }, notQ(kw('y'))] } },
    });
    expect(compiled({ or: [{ keyword: { name: 'x' } }, { eq: { age: 1 } }] })).toEqual({
      scored: true,
      query: { bool: { should: [kw('x'), { bool: { filter: [{ term: { 'sx.f.age.n': 1 } }] } }], minimum_should_match: 1 } },
    });
    expect(compiled({ not: { keyword: { name: 'x' } } })).toEqual({ scored: false, query: notQ(kw('x')) });
  });

  it('several keys in one object are an and, in key order', () => {
    expect(q({ eq: { name: 'a' }, lt: { age: 5 } })).toEqual({ bool: { filter: [{ term: { 'sx.f.name.s': 'a' } }, { range: { 'sx.f.age.n': { lt: 5 } } }] } });
  });
});
