/** Overview §7 rules as 400s, and parent values the sandbox lists being the ones it accepts. */
import { describe, expect, it } from 'vitest';
import { isBoundedJql } from '../../../src/sandbox/jql.js';
import { Sandbox } from '../../../src/sandbox/sandbox.js';
import { call, expect400, failure } from './helpers.js';

const sb = new Sandbox({ defaultSize: 3 });

describe('rule 1: issue-tracker issues api_search needs a bounded JQL', () => {
  it.each([
    'project = ABC',
    'project in (ABC, "X Y") ORDER BY created DESC',
    'assignee = currentUser()',
    'reporter = "5b10a2844c20165700ede21g"',
    'key = ABC-1',
    'issuekey in (ABC-1, ABC-2)',
    'sprint = 42',
    'created >= -7d AND project = ABC',
    '(project = A OR project = B) AND updated > "2026-01-01"',
    'project = "A" ORDER BY created ASC',
  ])('bounded: %s', (jql) => expect(isBoundedJql(jql)).toBe(true));

  it.each([
    '',
    'ORDER BY created DESC',
    'created >= -7d',
    'created >= "2026-01-01" AND updated < now() ORDER BY key',
    'project != ABC',
    'NOT project = ABC',
    'project = A OR created > -1d',
    'text ~ "project = A"',
    'status = Done',
    'project = "ABC',
  ])('unbounded: "%s"', (jql) => expect(isBoundedJql(jql)).toBe(false));

  it('rejects unbounded queries with a 400 on jql; more than 5 properties too', () => {
    expect400(() => call(sb, 'issue_tracker', 'issues', { jql: 'created >= -30d ORDER BY created' }), 'jql', /unbounded/);
    expect400(() => call(sb, 'issue_tracker', 'issues', { jql: 'ORDER BY created' }), 'jql', /unbounded/);
    expect400(() => call(sb, 'issue_tracker', 'issues', { jql: 'assignee = me', properties: 'a,b,c,d,e,f' }), 'properties');
    expect(call(sb, 'issue_tracker', 'issues', { jql: 'assignee = me', properties: 'a,b,c,d,e' }).data).toHaveLength(3);
  });

  it('a project named in the JQL template must exist (its issues belong to it)', () => {
    const key = String(call(sb, 'issue_tracker', 'projects').data[0]?.key);
    expect(call(sb, 'issue_tracker', 'issues', { jql: `project = "${key}" ORDER BY created ASC` }).data.length).toBeGreaterThan(0);
    expect(failure(() => call(sb, 'issue_tracker', 'issues', { jql: 'project = "NOPE" ORDER BY created ASC' })).code).toBe('not_found');
  });
});

describe('rules 3 to 5 and CRM search limits', () => {
  it('email marketing campaigns.list requires filter (email or sms)', () => {
    expect400(() => call(sb, 'email_marketing', 'campaigns'), 'filter', /required/);
    expect400(() => call(sb, 'email_marketing', 'campaigns', { filter: 'fax' }), 'filter');
    expect(call(sb, 'email_marketing', 'campaigns', { filter: 'sms' }).data).toHaveLength(3);
  });

  it('work management tasks.list needs project, or section, or workspace with assignee', () => {
    expect400(() => call(sb, 'work_management', 'tasks'), 'project');
    expect400(() => call(sb, 'work_management', 'tasks', { workspace: 'w1' }), 'assignee');
    expect(call(sb, 'work_management', 'tasks', { section: 's1' }).data).toHaveLength(3);
    expect(call(sb, 'work_management', 'tasks', { workspace: 'w1', assignee: 'me' }).data).toHaveLength(3);
  });

  it('workspace_task_search needs a search filter; sort params do not count', () => {
    expect400(() => call(sb, 'work_management', 'workspace_task_search', { workspace_gid: 'w1', sort_by: 'created_at', sort_ascending: true }), 'text', /search filter/);
    expect400(() => call(sb, 'work_management', 'workspace_task_search', { text: 'x' }), 'workspace_gid', /required/);
    expect(call(sb, 'work_management', 'workspace_task_search', { workspace_gid: 'w1', 'projects.any': 'p1', limit: 2 }).data).toHaveLength(2);
  });

  it('CRM api_search: at most 6 filter groups, query up to 3000 characters', () => {
    const group = { filters: [{ propertyName: 'email', operator: 'HAS_PROPERTY' }] };
    expect(call(sb, 'crm', 'contacts', { filterGroups: Array(6).fill(group) }, 'api_search').meta).toMatchObject({ total: 3 });
    expect400(() => call(sb, 'crm', 'contacts', { filterGroups: Array(7).fill(group) }, 'api_search'), 'filterGroups');
    expect400(() => call(sb, 'crm', 'contacts', { query: 'x'.repeat(3001) }, 'api_search'), 'query', /3000/);
  });
});

describe('parents: what the sandbox lists is what it accepts', () => {
  it('tables of a listed base are accepted; records need a table of that same base', () => {
    const [b1, b2] = call(sb, 'table_platform', 'bases').data.map((b) => String(b.id));
    const t1 = String(call(sb, 'table_platform', 'tables', { base_id: b1 }).data[0]?.id);
    expect(call(sb, 'table_platform', 'records', { base_id: b1, table_id_or_name: t1 }).data.length).toBeGreaterThanOrEqual(0);
    const wrongBase = failure(() => call(sb, 'table_platform', 'records', { base_id: b2, table_id_or_name: t1 }));
    expect([wrongBase.code, wrongBase.path]).toEqual(['not_found', 'params.table_id_or_name']);
    expect(failure(() => call(sb, 'table_platform', 'tables', { base_id: 'appNOPE' })).path).toBe('params.base_id');
  });

  it('a read-through entity shares its list’s records (teams are workspace_teams)', () => {
    const ws = String(call(sb, 'work_management', 'workspaces').data[0]?.gid);
    const listed = call(sb, 'work_management', 'workspace_teams', { workspace_gid: ws }).data;
    expect(listed.every((t) => t.resource_type === 'team' && 'visibility' in t)).toBe(true);
    const part = sb.partitions('work_management', 'teams').find((p) => p.params.workspace_gid === ws);
    expect(sb.records('work_management', 'teams', { scope: part?.scope ?? '' }).data).toEqual(listed);
    const team = String(listed[0]?.gid);
    expect(call(sb, 'work_management', 'team_users', { team_gid: team }).data.length).toBeGreaterThanOrEqual(0);
  });
});
