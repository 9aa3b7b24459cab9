/** A small customers-like entity for the search tests, plus error assertion helpers. */
import { expect } from 'vitest';
import { AppError, type ErrorCode } from '../../../src/errors.js';
import type { SearchQuery, SearchTarget } from '../../../src/search/dsl/ast.js';
import { parseSearchParams } from '../../../src/search/dsl/parse.js';

export const customers: SearchTarget = Object.freeze({
  connectorType: 'payments',
  entity: 'customers',
  idField: 'id',
  searchable: Object.freeze({
    id: 'string',
    name: 'string',
    email: 'string',
    created: 'string',
    age: 'int',
    balance: 'number',
    active: 'boolean',
    address: 'object',
    tags: 'array',
    scores: 'array',
    orders: 'array',
  }),
});

/** Parses `params` against the customers target. */
export const parse = (params: unknown, target: SearchTarget = customers): SearchQuery => parseSearchParams(target, params);

/** Parses a bare filter. */
export const parseF = (filter: unknown): SearchQuery => parse({ query: { filter } });

/** Asserts `fn` throws an AppError with this code and path, whose message contains `word`. */
export function expectAppError(fn: () => unknown, code: ErrorCode, path: string | undefined, word: string): AppError {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught, 'expected an AppError to be thrown').toBeInstanceOf(AppError);
  const err = caught as AppError;
  expect({ code: err.code, path: err.path }).toEqual({ code, path });
  expect(err.message.toLowerCase()).toContain(word.toLowerCase());
  return err;
}

/** Deterministic PRNG (mulberry32) for the small randomized checks. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
