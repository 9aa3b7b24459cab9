/** Planner paging: first and next page params in every paging style the catalog names. */
import { describe, expect, it } from 'vitest';
import { catalog } from '../../../src/connectors/catalog/index.js';
import type { EntityDef, ReadSpec } from '../../../src/connectors/catalog/types.js';
import { checkPageMeta, firstPageParams, nextPageParams, recordsOf } from '../../../src/connectors/planner.js';

const entity = (read: ReadSpec, idField = 'id'): EntityDef => ({ name: 'things', actions: ['list'], idField, source: 'inferred', fields: { [idField]: { type: 'string' } }, read });
const recs = (...ids: (string | number)[]): Record<string, unknown>[] => ids.map((id) => ({ id }));
const def = (kind: string, name: string): EntityDef => {
  const e = catalog[kind]?.entities[name];
  if (e === undefined) throw new Error(`${kind}.${name}`);
  return e;
};

describe('last_id paging', () => {
  const e = def('payments', 'customers');

  it('asks for the largest page and continues after the last id while has_more', () => {
    const first = firstPageParams(e, {});
    expect(first).toEqual({ limit: 100 });
    expect(nextPageParams(e, first, { records: recs('cus_1', 'cus_2'), meta: { has_more: true } })).toEqual({ limit: 100, starting_after: 'cus_2' });
    expect(nextPageParams(e, first, { records: recs('cus_1'), meta: { has_more: false } })).toBeNull();
  });

  it('without a has-more flag (live-chat since_id) ends on an empty page', () => {
    const agents = def('live_chat_support', 'agents');
    const first = firstPageParams(agents, {});
    expect(nextPageParams(agents, first, { records: recs(7, 8), meta: {} })).toEqual({ limit: 100, since_id: 8 });
    expect(nextPageParams(agents, { ...first, since_id: 8 }, { records: [], meta: {} })).toBeNull();
  });
});

describe('token paging', () => {
  it('reads nested meta paths (pagination.cursor, next_page.offset) and ends when the token is absent or null', () => {
    const calls = def('sales_call_intelligence', 'calls');
    expect(nextPageParams(calls, {}, { records: recs('a'), meta: { pagination: { cursor: 'c2', totalRecords: 9 } } })).toEqual({ cursor: 'c2' });
    expect(nextPageParams(calls, { cursor: 'c2' }, { records: recs('b'), meta: { pagination: { totalRecords: 9 } } })).toBeNull();
    const tasks = def('work_management', 'tasks');
    const first = firstPageParams(tasks, { project: 'p1' });
    expect(first).toEqual({ project: 'p1', limit: 100 });
    expect(nextPageParams(tasks, first, { records: recs('t'), meta: { next_page: { offset: 'tok', path: '/tasks?offset=tok' } } })).toEqual({ ...first, offset: 'tok' });
    expect(nextPageParams(tasks, first, { records: recs('t'), meta: { next_page: null } })).toBeNull();
  });

  it('honours done flags in both senses (isLast, hasNextPage)', () => {
    const issues = def('issue_tracker', 'issues');
    const jql = { jql: 'project = "A" ORDER BY created ASC' };
    expect(nextPageParams(issues, jql, { records: recs('1'), meta: { nextPageToken: 't', isLast: true } })).toBeNull();
    expect(nextPageParams(issues, jql, { records: recs('1'), meta: { nextPageToken: 't', isLast: false } })).toEqual({ ...jql, nextPageToken: 't' });
    const linear = def('task_tracker', 'issues');
    expect(nextPageParams(linear, { first: 250 }, { records: recs('1'), meta: { endCursor: 'e', hasNextPage: false } })).toBeNull();
    expect(nextPageParams(linear, { first: 250 }, { records: recs('1'), meta: { endCursor: 'e', hasNextPage: true } })).toEqual({ first: 250, after: 'e' });
  });

  it('a null cursor (the reference types them `T?`) is the end, unless the page\'s own flag says more remain: then a retryable failure naming both', () => {
    const issues = def('issue_tracker', 'issues');
    const jql = { jql: 'project = "A" ORDER BY created ASC' };
    // isLast is `boolean?` too: null (or absent) with no token is the last page, as the reference says.
    expect(nextPageParams(issues, jql, { records: recs('1'), meta: { nextPageToken: null, isLast: null } })).toBeNull();
    expect(nextPageParams(issues, jql, { records: recs('1'), meta: {} })).toBeNull();
    expect(() => nextPageParams(issues, jql, { records: recs('1'), meta: { nextPageToken: null, isLast: false } })).toThrow(expect.objectContaining({ retryable: true, path: 'meta.nextPageToken', message: expect.stringMatching(/meta\.isLast = false.*meta\.nextPageToken null/) }));
    const linear = def('task_tracker', 'issues');
    expect(() => nextPageParams(linear, { first: 250 }, { records: recs('1'), meta: { hasNextPage: true } })).toThrow(/meta\.hasNextPage = true.*meta\.endCursor absent/);
    expect(() => checkPageMeta(linear, { hasNextPage: true, endCursor: '' })).toThrow(/endCursor ""/);
    expect(nextPageParams(linear, { first: 250 }, { records: recs('1'), meta: { endCursor: null, hasNextPage: false } })).toBeNull();
    // Without a flag, null is the overview's "no further page".
    const users = def('team_chat', 'users');
    expect(nextPageParams(users, {}, { records: recs('u'), meta: { next_cursor: null } })).toBeNull();
  });

  it('stops a runaway cursor, unless the spec says an unchanged token is the end', () => {
    const e = entity({ action: 'list', paging: { style: 'token', param: 'cursor', from: 'next' } });
    expect(() => nextPageParams(e, { cursor: 'x' }, { records: recs('1'), meta: { next: 'x' } })).toThrow(/did not advance/);
    const chats = def('live_chat_support', 'chats');
    expect(chats.read?.paging).toMatchObject({ style: 'token', endWhenUnchanged: true });
    expect(nextPageParams(chats, { start_time: 100, limit: 1000 }, { records: [], meta: { next_page: 100 } })).toBeNull();
    expect(nextPageParams(chats, { start_time: 100, limit: 1000 }, { records: recs('c'), meta: { next_page: 160 } })).toEqual({ start_time: 160, limit: 1000 });
  });

  it('takes the token from a vendor next-page URL, keeping numbers numeric', () => {
    const chats = def('live_chat_support', 'chats');
    const url = 'https://chat.example.com/api/v2/incremental/chats?fields=chats(*)&start_time=1700000000';
    expect(nextPageParams(chats, { start_time: 0, limit: 1000 }, { records: recs('c'), meta: { next_page: url } })).toEqual({ start_time: 1_700_000_000, limit: 1000 });
  });

  it('sends a numeric string token as the number the previous request carried, and ends when it stops moving', () => {
    const chats = def('live_chat_support', 'chats');
    expect(nextPageParams(chats, { start_time: 100, limit: 1000 }, { records: recs('c'), meta: { next_page: '160' } })).toEqual({ start_time: 160, limit: 1000 });
    expect(nextPageParams(chats, { start_time: 160, limit: 1000 }, { records: [], meta: { next_page: '160' } })).toBeNull();
  });
});

describe('page and offset paging', () => {
  it('page numbers start at the spec start and end on a short page', () => {
    const e = def('applicant_tracking', 'candidates');
    const first = firstPageParams(e, {});
    expect(first).toEqual({ per_page: 500, page: 1 });
    const full = Array.from({ length: 500 }, (_, i) => ({ id: i + 1 }));
    expect(nextPageParams(e, first, { records: full, meta: {} })).toEqual({ per_page: 500, page: 2 });
    expect(nextPageParams(e, { ...first, page: 2 }, { records: full.slice(0, 3), meta: {} })).toBeNull();
    expect(nextPageParams(e, first, { records: [], meta: {} })).toBeNull();
  });

  it('offsets advance by the page length and end at the reported total (a server-capped page does not end them)', () => {
    const e = def('email_campaigns', 'campaigns');
    const first = firstPageParams(e, {});
    expect(first).toEqual({ sort_field: 'create_time', sort_dir: 'ASC', count: 1000, offset: 0 });
    const ten = Array.from({ length: 10 }, (_, i) => ({ id: `c${i}` }));
    expect(nextPageParams(e, first, { records: ten, meta: { total_items: 25 } })).toEqual({ ...first, offset: 10 });
    expect(nextPageParams(e, { ...first, offset: 20 }, { records: ten.slice(0, 5), meta: { total_items: 25 } })).toBeNull();
  });

  it('offsets without a total end on a short page', () => {
    const e = entity({ action: 'list', pageSize: { param: 'n', max: 2 }, paging: { style: 'offset', param: 'skip' } });
    expect(nextPageParams(e, { n: 2, skip: 0 }, { records: recs('a', 'b'), meta: {} })).toEqual({ n: 2, skip: 2 });
    expect(nextPageParams(e, { n: 2, skip: 2 }, { records: recs('c'), meta: {} })).toBeNull();
  });
});

describe('none paging and records', () => {
  it('a whole list is one request', () => {
    const e = def('table_platform', 'tables');
    expect(firstPageParams(e, { base_id: 'b1' })).toEqual({ base_id: 'b1' });
    expect(nextPageParams(e, { base_id: 'b1' }, { records: recs('t1'), meta: {} })).toBeNull();
  });

  it('a whole list whose answer announces another page fails loudly instead of passing page 1 off as the list', () => {
    const e = def('live_chat_support', 'departments');
    expect(e.read?.paging.style).toBe('none');
    for (const meta of [{ has_more: true }, { next_page: 'https://chat.example.com/api/v2/departments?page=2' }, { pagination: { cursor: 'c2' } }, { next_cursor: 'abc' }]) {
      expect(() => nextPageParams(e, {}, { records: recs('d1'), meta }), JSON.stringify(meta)).toThrow(/read in one call, but the runtime announced another page/);
    }
    // The end markers runtimes send on a last page are no such announcement.
    for (const meta of [{ has_more: false }, { next_page: null }, { next_cursor: '' }, { count: 3 }]) expect(nextPageParams(e, {}, { records: recs('d1'), meta })).toBeNull();
  });

  it('reads records at a nested recordsPath and drops non-objects', () => {
    const e = entity({ action: 'list', paging: { style: 'none' }, recordsPath: 'result.items' });
    expect(recordsOf(e, { result: { items: [{ id: 'a' }, 3, null] } })).toEqual([{ id: 'a' }]);
    expect(() => recordsOf(e, { result: {} })).toThrow(/no record list/);
  });

  it('a get read is one request per partition whose data is the record itself', () => {
    const e = def('ad_platform_marketing', 'ad_account');
    expect(firstPageParams(e, { account_id: '111' })).toEqual({ account_id: '111' });
    expect(recordsOf(e, { id: 'act_111', account_id: '111' })).toEqual([{ id: 'act_111', account_id: '111' }]);
    expect(nextPageParams(e, { account_id: '111' }, { records: recs('act_111'), meta: {} })).toBeNull();
    expect(() => recordsOf(e, [{ id: 'act_111' }])).toThrow(/not a record/);
    expect(recordsOf(e, null)).toEqual([]);
  });
});
