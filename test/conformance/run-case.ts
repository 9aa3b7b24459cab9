/** Runs a conformance case to the end, paging by `pageSize`, on any search function. */
import type { SearchQuery, SearchTarget } from '../../src/search/dsl/ast.js';
import { parseSearchParams } from '../../src/search/dsl/parse.js';
import { evaluatePage } from '../../src/search/reference/evaluate.js';
import { projectDoc } from '../../src/search/reference/project.js';
import { records, target } from './dataset.js';

/** A page of hits and where to continue. */
export interface PageResult {
  readonly hits: readonly { id: string; score: number; data: Record<string, unknown> }[];
  readonly after: readonly unknown[] | null;
}

/** A search implementation under test: one page after `after`. */
export type PageFn = (query: SearchQuery, after: readonly unknown[] | null) => Promise<PageResult>;

/** A backend's rows (limit + 1 of them) as a conformance page: hits projected, where to continue. */
export function pageOf(t: SearchTarget, query: SearchQuery, rows: readonly { id: string; score: number; doc: Record<string, unknown>; sortValues: readonly unknown[] }[]): PageResult {
  const page = rows.slice(0, query.limit);
  const last = page[page.length - 1];
  return {
    hits: page.map((h) => ({ id: h.id, score: h.score, data: projectDoc(t, query.fields, h.doc) })),
    after: rows.length > query.limit && last !== undefined ? last.sortValues : null,
  };
}

/** The reference evaluator as a PageFn. */
export const referencePage: PageFn = async (query, after) => {
  const { hits, nextAfter } = evaluatePage(target, query, records, after);
  return { hits: hits.map((h) => ({ id: h.id, score: h.score, data: projectDoc(target, query.fields, h.doc) })), after: nextAfter };
};

/** All hits of `params`, fetched `pageSize` at a time. */
export async function collect(page: PageFn, params: Record<string, unknown>, pageSize?: number): Promise<PageResult['hits'][number][]> {
  const query = parseSearchParams(target, pageSize === undefined ? params : { ...params, limit: pageSize });
  const out: PageResult['hits'][number][] = [];
  let after: readonly unknown[] | null = null;
  for (let i = 0; i < 10_000; i++) {
    const res = await page(query, after);
    out.push(...res.hits);
    if (res.after === null) return out;
    after = res.after;
  }
  throw new Error('paging did not end');
}
