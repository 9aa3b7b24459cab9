/** The sandbox pages each entity exactly as the catalog names it: params, meta paths, flags. */
import { describe, expect, it } from 'vitest';
import { Sandbox } from '../../../src/sandbox/sandbox.js';
import { call } from './helpers.js';

const sized = (kind: string, entity: string, size: number): Sandbox => {
  const sb = new Sandbox({ defaultSize: 5 });
  sb.configure({ connectorType: kind, entity, size });
  return sb;
};
const ids = (r: { data: Record<string, unknown>[] }, field = 'id'): unknown[] => r.data.map((x) => x[field]);

describe('sandbox paging styles', () => {
  it('payments: starting_after the last id, has_more, default limit 10, newest first', () => {
    const sb = sized('payments', 'customers', 25);
    const p1 = call(sb, 'payments', 'customers');
    expect(p1.data).toHaveLength(10);
    expect(p1.meta).toMatchObject({ has_more: true, url: '/v1/customers' });
    const created = p1.data.map((r) => r.created as number);
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    const p3 = call(sb, 'payments', 'customers', { limit: 10, starting_after: 'cus_000019' });
    expect(ids(p3)).toEqual(Array.from({ length: 5 }, (_, i) => `cus_0000${20 + i}`));
    expect(p3.meta.has_more).toBe(false);
  });

  it('payments: the created object bounds a list, lt from above, gte from below, together a time slice', () => {
    const sb = sized('payments', 'customers', 25);
    const all = call(sb, 'payments', 'customers', { limit: 100 }).data;
    const t = (i: number) => all[i]!.created as number;
    const slice = call(sb, 'payments', 'customers', { limit: 100, created: { gte: t(15), lt: t(4) } });
    expect(ids(slice)).toEqual(all.slice(5, 16).map((r) => r.id));
    const older = call(sb, 'payments', 'customers', { limit: 3, created: { lt: t(4) } });
    expect(ids(older)).toEqual(all.slice(5, 8).map((r) => r.id));
    const next = call(sb, 'payments', 'customers', { limit: 100, created: { lt: t(4) }, starting_after: all[7]!.id });
    expect(ids(next)).toEqual(all.slice(8).map((r) => r.id));
  });

  it('issue tracker: nextPageToken and isLast, total; the token is absent on the last page', () => {
    const sb = sized('issue_tracker', 'projects', 150);
    const p1 = call(sb, 'issue_tracker', 'projects', { maxResults: 100 });
    expect(p1.meta).toMatchObject({ isLast: false, total: 150 });
    expect(typeof p1.meta.nextPageToken).toBe('string');
    const p2 = call(sb, 'issue_tracker', 'projects', { maxResults: 100, nextPageToken: p1.meta.nextPageToken });
    expect(p2.data).toHaveLength(50);
    expect(p2.meta).toMatchObject({ isLast: true });
    expect(p2.meta.nextPageToken ?? null).toBeNull();
  });

  it('task tracker: first/after with hasNextPage and endCursor', () => {
    const sb = sized('task_tracker', 'issues', 3);
    const p1 = call(sb, 'task_tracker', 'issues', { first: 2 });
    expect(p1.meta).toMatchObject({ hasNextPage: true });
    const p2 = call(sb, 'task_tracker', 'issues', { first: 2, after: p1.meta.endCursor });
    expect(p2.data).toHaveLength(1);
    expect(p2.meta.hasNextPage).toBe(false);
  });

  it('sales call: cursor from pagination.cursor, with the pagination totals', () => {
    const sb = sized('sales_call_intelligence', 'users', 130);
    const p1 = call(sb, 'sales_call_intelligence', 'users');
    expect(p1.meta.pagination).toMatchObject({ totalRecords: 130, currentPageSize: 100, currentPageNumber: 0 });
    const cursor = (p1.meta.pagination as { cursor: string }).cursor;
    const p2 = call(sb, 'sales_call_intelligence', 'users', { cursor });
    expect(p2.meta.pagination).toMatchObject({ currentPageSize: 30, currentPageNumber: 1 });
    expect(p2.meta.pagination).not.toHaveProperty('cursor');
  });

  it('work management: offset token at next_page.offset; next_page is null at the end', () => {
    const sb = sized('work_management', 'workspaces', 3);
    const p1 = call(sb, 'work_management', 'workspaces', { limit: 2 });
    expect(p1.meta.next_page).toMatchObject({ offset: expect.any(String), path: expect.stringContaining('/workspaces?offset=') });
    const p2 = call(sb, 'work_management', 'workspaces', { limit: 2, offset: (p1.meta.next_page as { offset: string }).offset });
    expect(p2.meta.next_page).toBeNull();
    expect(() => call(sb, 'work_management', 'workspaces', { offset: 'not-a-token' })).toThrow(/valid page token/);
  });

  it('applicant tracking: per_page/page numbers; a page past the end is empty', () => {
    const sb = sized('applicant_tracking', 'candidates', 5);
    expect(ids(call(sb, 'applicant_tracking', 'candidates', { per_page: 2, page: 3 }))).toEqual([5]);
    expect(call(sb, 'applicant_tracking', 'candidates', { per_page: 2, page: 4 }).data).toEqual([]);
  });

  it('email campaigns: count/offset with total_items; count defaults to 10', () => {
    const sb = sized('email_campaigns', 'campaigns', 12);
    const p1 = call(sb, 'email_campaigns', 'campaigns');
    expect(p1.data).toHaveLength(10);
    expect(p1.meta).toEqual({ total_items: 12 });
    expect(call(sb, 'email_campaigns', 'campaigns', { offset: 10, count: 5 }).data).toHaveLength(2);
  });

  it('email marketing: page[cursor] from next_cursor; crm: next_cursor and next_link', () => {
    const sb = sized('email_marketing', 'profiles', 3);
    const p1 = call(sb, 'email_marketing', 'profiles', { 'page[size]': 2 });
    expect(call(sb, 'email_marketing', 'profiles', { 'page[size]': 2, 'page[cursor]': p1.meta.next_cursor }).meta.next_cursor).toBeNull();
    sb.configure({ connectorType: 'crm', entity: 'contacts', size: 3 });
    const c1 = call(sb, 'crm', 'contacts', { limit: 2 });
    expect(c1.meta.next_link).toContain(`after=${String(c1.meta.next_cursor)}`);
  });

  it('live chat export: oldest first from start_time; next_page (a string, as the reference types it) stops advancing at the end', () => {
    const sb = sized('live_chat_support', 'chats', 5);
    const p1 = call(sb, 'live_chat_support', 'chats', { start_time: 0, limit: 3 });
    const times = p1.data.map((r) => Date.parse(String(r.update_timestamp)) / 1000);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(p1.meta).toMatchObject({ next_page: String((times[2] ?? 0) + 1), count: 3 });
    const p2 = call(sb, 'live_chat_support', 'chats', { start_time: Number(p1.meta.next_page), limit: 3 });
    expect(p2.data).toHaveLength(2);
    const p3 = call(sb, 'live_chat_support', 'chats', { start_time: Number(p2.meta.next_page), limit: 3 });
    expect(p3.data).toEqual([]);
    expect(p3.meta.next_page).toBe(p2.meta.next_page);
  });

  it('live chat since_id: continues after the id; agents ids are integers', () => {
    const sb = sized('live_chat_support', 'agents', 4);
    expect(ids(call(sb, 'live_chat_support', 'agents', { since_id: 2 }))).toEqual([3, 4]);
  });

  it('whole lists come back in one page without paging meta', () => {
    const sb = sized('live_chat_support', 'departments', 150);
    const page = call(sb, 'live_chat_support', 'departments');
    expect(page.data).toHaveLength(150);
    expect(page.meta).toEqual({});
  });

  it('payments api_search pages by page ← next_page with has_more; it searches the same customers', () => {
    const sb = sized('payments', 'customers', 15);
    const s1 = call(sb, 'payments', 'customers', { query: "email:'x'", limit: 10 }, 'api_search');
    expect(s1.meta).toMatchObject({ has_more: true, url: '/v1/customers/search' });
    const s2 = call(sb, 'payments', 'customers', { query: "email:'x'", limit: 10, page: s1.meta.next_page }, 'api_search');
    expect(s2.meta).toMatchObject({ has_more: false, next_page: null });
    expect([...ids(s1), ...ids(s2)]).toEqual(ids(call(sb, 'payments', 'customers', { limit: 100 })));
  });
});
