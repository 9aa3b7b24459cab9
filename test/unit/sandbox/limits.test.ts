/** Page-size limits (overview §8), required and unknown params, types: 400s naming the param. */
import { describe, expect, it } from 'vitest';
import { Sandbox } from '../../../src/sandbox/sandbox.js';
import { call, expect400, failure } from './helpers.js';

const sb = new Sandbox({ defaultSize: 3 });

describe('page-size limits', () => {
  const cases: [string, string, string, number, Record<string, unknown>][] = [
    ['payments', 'customers', 'limit', 100, {}],
    ['issue_tracker', 'issues', 'maxResults', 5000, { jql: 'assignee = currentUser()' }],
    ['task_tracker', 'issues', 'first', 250, {}],
    ['applicant_tracking', 'candidates', 'per_page', 500, {}],
    ['email_marketing', 'profiles', 'page[size]', 100, {}],
    ['email_campaigns', 'campaigns', 'count', 1000, {}],
    ['work_management', 'workspaces', 'limit', 100, {}],
  ];
  it.each(cases)('%s.%s: %s 1..%i, else 400 naming it', (kind, entity, param, max, extra) => {
    expect(call(sb, kind, entity, { ...extra, [param]: max }).data.length).toBeGreaterThan(0);
    expect(call(sb, kind, entity, { ...extra, [param]: 1 }).data).toHaveLength(1);
    expect400(() => call(sb, kind, entity, { ...extra, [param]: max + 1 }), param);
    expect400(() => call(sb, kind, entity, { ...extra, [param]: 0 }), param);
    expect400(() => call(sb, kind, entity, { ...extra, [param]: '10' }), param);
  });

  it('table records: pageSize at most 100 per table', () => {
    const bases = call(sb, 'table_platform', 'bases').data;
    const base = String(bases[0]?.id);
    const table = String(call(sb, 'table_platform', 'tables', { base_id: base }).data[0]?.id);
    expect400(() => call(sb, 'table_platform', 'records', { base_id: base, table_id_or_name: table, pageSize: 101 }), 'pageSize');
  });

  it('payments api_search: limit 1 to 100 too, and query is required', () => {
    expect400(() => call(sb, 'payments', 'charges', { query: 'amount>1', limit: 101 }, 'api_search'), 'limit');
    expect400(() => call(sb, 'payments', 'charges', { limit: 5 }, 'api_search'), 'query', /required/);
  });
});

describe('params', () => {
  it('required params are enforced', () => {
    expect400(() => call(sb, 'table_platform', 'tables'), 'base_id', /required/);
    expect400(() => call(sb, 'ad_platform_marketing', 'campaigns'), 'account_id', /required/);
    expect400(() => call(sb, 'issue_tracker', 'issue_comments'), 'issueIdOrKey', /required/);
  });

  it('unknown params, wrong types and enum values are 400s naming the param', () => {
    expect400(() => call(sb, 'payments', 'customers', { page: 2 }), 'page', /unknown parameter/);
    expect400(() => call(sb, 'payments', 'customers', { created: { gte: '2026-01-01' } }), 'created.gte', /integer/);
    expect400(() => call(sb, 'payments', 'customers', { created: { after: 1 } }), 'created.after', /unknown key created.after; created takes: gt, gte, lt, lte/);
    expect400(() => call(sb, 'payments', 'customers', { created: 1767225600 }), 'created', /object/);
    // The reference's `created` is an object: a flat `created.gte` is not one of its params.
    expect400(() => call(sb, 'payments', 'customers', { 'created.gte': 1767225600 }), 'created.gte', /unknown parameter/);
    expect400(() => call(sb, 'payments', 'subscriptions', { status: 'gone' }), 'status', /one of/);
    expect400(() => call(sb, 'team_chat', 'channels', { exclude_archived: 'no' }), 'exclude_archived', /boolean/);
    expect400(() => call(sb, 'payments', 'customers', { starting_after: 'cus_999999' }), 'starting_after', /no such object/);
  });

  it('actions: unknown ones are 400, `search` is hosted only, reads and lists without a read are served', () => {
    expect(failure(() => call(sb, 'payments', 'customers', {}, 'download')).path).toBe('action');
    expect(failure(() => call(sb, 'payments', 'customers', {}, 'search')).message).toMatch(/hosted mode only/);
    expect(failure(() => call(sb, 'payments', 'customers', {}, 'get')).message).toMatch(/list and api_search/);
    expect(call(sb, 'email_campaigns', 'list_members', { list_id: 'l1', count: 2 }).meta).toMatchObject({ total_items: 3 });
    expect(call(sb, 'sales_call_intelligence', 'calls_extensive', { filter: { fromDateTime: '2026-01-01T00:00:00Z' } }).data).toHaveLength(3);
    expect(() => failure(() => call(sb, 'nope', 'x'))).not.toThrow();
  });
});

describe('get reads', () => {
  it('ad_account: one record per account id, carrying that id; a deleted account is a 404', () => {
    const local = new Sandbox({ defaultSize: 7 });
    const res = local.execute({ connector_type: 'ad_platform_marketing', credentials: { access_token: 't' }, entity: 'ad_account', action: 'get', params: { account_id: '111' } });
    expect(Array.isArray(res.data)).toBe(false);
    expect(res.data).toMatchObject({ account_id: '111' });
    expect(call(local, 'ad_platform_marketing', 'ad_account', { account_id: '222' }).data).toHaveLength(1);
    expect400(() => call(local, 'ad_platform_marketing', 'ad_account', {}), 'account_id');
    const scope = local.partitions('ad_platform_marketing', 'ad_account', { account_ids: '111' })[0]?.scope;
    local.mutate('ad_platform_marketing', 'ad_account', { delete: 1 }, scope);
    expect(failure(() => call(local, 'ad_platform_marketing', 'ad_account', { account_id: '111' })).code).toBe('not_found');
  });
});
