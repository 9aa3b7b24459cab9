/** Golden `_search` bodies: tenant filter, scoring mode, sort, search_after, size, routing. */
import { describe, expect, it } from 'vitest';
import type { BackendSearch } from '../../../../src/search/backend.js';
import { compileSearchBody, searchAfterValue, sortClause } from '../../../../src/search/opensearch/compile.js';
import { sortKeyOf } from '../../../../src/search/opensearch/derive.js';
import { customers, parse } from '../fixtures.js';

const CONNECTOR = '6f1c0f7e-1111-4c4c-8888-000000000001';

function request(params: unknown, after: unknown[] | null = null): BackendSearch {
  const query = parse(params);
  return { target: customers, connectorId: CONNECTOR, query, after, size: query.limit + 1 };
}
const body = (params: unknown, after: unknown[] | null = null) => compileSearchBody(customers, request(params, after)).body;

const TENANT = { term: { 'sx.c': CONNECTOR } };
const ID_SORT = { 'sx.id': { order: 'asc' } };

describe('compileSearchBody', () => {
  it('no filter: the tenant filter, id order, limit + 1, no total hits count, routed by connector', () => {
    expect(compileSearchBody(customers, request({ query: {}, limit: 10 }))).toEqual({
      routing: CONNECTOR,
      body: {
        size: 11,
        track_total_hits: false,
        query: { bool: { filter: [TENANT] } },
        sort: [ID_SORT],
        docvalue_fields: [{ field: 'sx.id' }],
      },
    });
  });

  it('unscored filter: tenant and filter both in filter context', () => {
    expect(body({ query: { filter: { eq: { name: 'Ann' } } } })).toEqual({
      size: 1001,
      track_total_hits: false,
      query: { bool: { filter: [TENANT, { term: { 'sx.f.name.s': 'Ann' } }] } },
      sort: [ID_SORT],
      docvalue_fields: [{ field: 'sx.id' }],
    });
  });

  it('scored filter: the filter is the one must clause, default order score desc then id', () => {
    const b = body({ query: { filter: { keyword: { name: 'ann' } } } }) as any;
    expect(b.query.bool.filter).toEqual([TENANT]);
    expect(b.query.bool.must).toHaveLength(1);
    expect(b.sort).toEqual([{ _score: { order: 'desc' } }, ID_SORT]);
    expect(b).not.toHaveProperty('track_scores');
  });

  it('scored filter sorted by fields: track_scores so every hit still has its score', () => {
    expect(body({ query: { filter: { fuzzy: { name: 'ann' } }, sort: [{ age: 'asc' }] } })).toMatchObject({ track_scores: true });
  });

  it('text only under not: scored query without relevance, everything filter context', () => {
    const b = body({ query: { filter: { not: { keyword: { name: 'ann' } } } } }) as any;
    expect(b.query.bool.must).toBeUndefined();
    expect(b.query.bool.filter).toHaveLength(2);
    expect(b.sort).toEqual([{ _score: { order: 'desc' } }, ID_SORT]);
  });

  it('multi-key sort: one keyword sort key per field, missing last both ways, sub-paths through the nested entry', () => {
    expect(body({ query: { sort: [{ created: 'desc' }, { 'address.city': 'asc' }, { age: 'asc' }, { active: 'desc' }] } }).sort).toEqual([
      { 'sx.f.created.o': { order: 'desc', missing: '0', unmapped_type: 'keyword' } },
      { 'sx.x.o': { order: 'asc', missing: '9', unmapped_type: 'keyword', mode: 'min', nested: { path: 'sx.x', filter: { term: { 'sx.x.k': '["address","city"]' } } } } },
      { 'sx.f.age.o': { order: 'asc', missing: '9', unmapped_type: 'keyword' } },
      { 'sx.f.active.o': { order: 'desc', missing: '0', unmapped_type: 'keyword' } },
      ID_SORT,
    ]);
  });

  it('search_after: the cursor values as sort keys (missing → the key missing gets in that direction)', () => {
    const b = body({ query: { sort: [{ created: 'desc' }, { 'address.city': 'asc' }, { age: 'asc' }] } }, ['2024-01-01', null, 42, 'cus_9']);
    expect(b.search_after).toEqual(['22024-01-01', '9', sortKeyOf(42), 'cus_9']);
    const scored = body({ query: { filter: { keyword: { name: 'a b' } } } }, [1.5, 'cus_2']);
    expect(scored.search_after).toEqual([1.5, 'cus_2']);
  });

  it('a cursor value of another JSON type than the field (dynamic paths) keeps its cross-type rank', () => {
    const key = { kind: 'field', path: { field: 'address', sub: ['n'], type: 'dynamic' }, dir: 'desc' } as const;
    expect(searchAfterValue(key, 7)).toBe(sortKeyOf(7));
    expect(searchAfterValue(key, 'x')).toBe('2x');
    expect(searchAfterValue(key, true)).toBe('31');
    expect(searchAfterValue(key, undefined)).toBe('0');
    expect(sortClause(key)).toMatchObject({ 'sx.x.o': { order: 'desc', missing: '0', unmapped_type: 'keyword' } });
  });

  it('fields projection does not change the body (the service projects _source)', () => {
    const filter = { or: [{ like: { email: '%@acme.%' } }, { contains: { tags: 'vip' } }] };
    expect(body({ query: { filter }, fields: ['name', 'address.city'] })).toEqual(body({ query: { filter } }));
  });

  it('the tenant filter is always the service connector id, whatever the filter says', () => {
    const b = body({ query: { filter: { or: [{ eq: { name: 'x' } }, { not: { eq: { name: 'x' } } }] } } }) as any;
    expect(b.query.bool.filter[0]).toEqual(TENANT);
  });

  it('a combined query, end to end', () => {
    const params = {
      query: {
        filter: {
          and: [
            { fuzzy: { name: 'jon' } },
            { or: [{ any: { orders: { keyword: { sku: 'lamp' } } } }, { in: { age: [30, null] } }] },
            { not: { like: { email: '%test%' } } },
          ],
        },
        sort: [{ balance: 'desc' }],
      },
      limit: 2,
    };
    expect(body(params, [12.5, 'cus_3'])).toMatchInlineSnapshot(`
      {
        "docvalue_fields": [
          {
            "field": "sx.id",
          },
        ],
        "query": {
          "bool": {
            "filter": [
              {
                "term": {
                  "sx.c": "6f1c0f7e-1111-4c4c-8888-000000000001",
                },
              },
            ],
            "must": [
              {
                "bool": {
                  "filter": [
                    {
                      "bool": {
                        "must_not": [
                          {
                            "wildcard": {
                              "sx.f.email.l": {
                                "value": "*test*",
                              },
                            },
                          },
                        ],
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
                                              "sx.f.name.w": "5dUW8Bjon",
                                            },
                                          },
                                        },
                                      },
                                      {
                                        "constant_score": {
                                          "boost": 0.5,
                                          "filter": {
                                            "prefix": {
                                              "sx.f.name.w": {
                                                "value": "5dUW8Bjon",
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
                                              "sx.f.name.w": {
                                                "fuzziness": 1,
                                                "prefix_length": 6,
                                                "rewrite": "constant_score",
                                                "transpositions": false,
                                                "value": "5dUW8Bjon",
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
                              "path": "sx.f.name.t",
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
                                                  "sx.f.name.t.w": "5dUW8Bjon",
                                                },
                                              },
                                            },
                                          },
                                          {
                                            "constant_score": {
                                              "boost": 0.5,
                                              "filter": {
                                                "prefix": {
                                                  "sx.f.name.t.w": {
                                                    "value": "5dUW8Bjon",
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
                                                  "sx.f.name.t.w": {
                                                    "fuzziness": 1,
                                                    "prefix_length": 6,
                                                    "rewrite": "constant_score",
                                                    "transpositions": false,
                                                    "value": "5dUW8Bjon",
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
                    {
                      "bool": {
                        "minimum_should_match": 1,
                        "should": [
                          {
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
                                                      "sx.x.e.x.k": "["sku"]",
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
                                                            "minimum_should_match": 1,
                                                            "should": [
                                                              {
                                                                "constant_score": {
                                                                  "boost": 1,
                                                                  "filter": {
                                                                    "term": {
                                                                      "sx.x.e.x.w": "5dUW8Blamp",
                                                                    },
                                                                  },
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
                                                                "minimum_should_match": 1,
                                                                "should": [
                                                                  {
                                                                    "constant_score": {
                                                                      "boost": 1,
                                                                      "filter": {
                                                                        "term": {
                                                                          "sx.x.e.x.t.w": "5dUW8Blamp",
                                                                        },
                                                                      },
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
                          {
                            "bool": {
                              "filter": [
                                {
                                  "bool": {
                                    "minimum_should_match": 1,
                                    "should": [
                                      {
                                        "terms": {
                                          "sx.f.age.n": [
                                            30,
                                          ],
                                        },
                                      },
                                      {
                                        "bool": {
                                          "must_not": [
                                            {
                                              "term": {
                                                "sx.f.age.p": true,
                                              },
                                            },
                                          ],
                                        },
                                      },
                                    ],
                                  },
                                },
                              ],
                            },
                          },
                        ],
                      },
                    },
                  ],
                },
              },
            ],
          },
        },
        "search_after": [
          "1c029000000000000",
          "cus_3",
        ],
        "size": 3,
        "sort": [
          {
            "sx.f.balance.o": {
              "missing": "0",
              "order": "desc",
              "unmapped_type": "keyword",
            },
          },
          {
            "sx.id": {
              "order": "asc",
            },
          },
        ],
        "track_scores": true,
        "track_total_hits": false,
      }
    `);
  });
});
