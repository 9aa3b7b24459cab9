/** Planner partitions: config, fixed values, parents with templates, nested parents (`within`), read-through entities. */
import { describe, expect, it } from 'vitest';
import { catalog } from '../../../src/connectors/catalog/index.js';
import type { EntityDef } from '../../../src/connectors/catalog/types.js';
import {
  applyTemplate,
  firstPageParams,
  matchTemplate,
  parentDims,
  parentKey,
  parentValueOf,
  planPartitions,
  readCall,
} from '../../../src/connectors/planner.js';

const def = (kind: string, name: string): EntityDef => {
  const e = catalog[kind]?.entities[name];
  if (e === undefined) throw new Error(`${kind}.${name}`);
  return e;
};

describe('config and fixed-value partitions', () => {
  it('splits config lists (string or array), trims, de-duplicates, and requires a value', () => {
    const campaigns = def('ad_platform_marketing', 'campaigns');
    expect(planPartitions(campaigns, { account_ids: ' 1, 2 ,,1' })).toEqual([{ account_id: '1' }, { account_id: '2' }]);
    expect(planPartitions(campaigns, { account_ids: ['3'] })).toEqual([{ account_id: '3' }]);
    expect(() => planPartitions(campaigns, {})).toThrow(/account_ids is required/);
  });

  it('reads email-marketing campaigns once per channel (§7 rule 3)', () => {
    expect(planPartitions(def('email_marketing', 'campaigns'), {})).toEqual([{ filter: 'email' }, { filter: 'sms' }]);
  });
});

describe('parent partitions', () => {
  it('fills the JQL template per project key (§7 rule 1)', () => {
    const issues = def('issue_tracker', 'issues');
    const [dim] = parentDims(issues);
    expect(dim && parentKey(dim)).toBe('projects.key');
    const parts = planPartitions(issues, {}, { 'projects.key': ['ABC', 'XYZ', 'ABC'] });
    expect(parts).toEqual([{ jql: 'project = "ABC" ORDER BY created ASC' }, { jql: 'project = "XYZ" ORDER BY created ASC' }]);
    expect(firstPageParams(issues, parts[0] ?? {})).toEqual({ jql: 'project = "ABC" ORDER BY created ASC', maxResults: 5000 });
  });

  it('takes the parent value from `from` when set, else the parent id', () => {
    const objects = def('crm', 'objects');
    const [dim] = parentDims(objects);
    expect(dim && parentValueOf(dim, def('crm', 'schemas'), { id: 's1', objectTypeId: '2-77' })).toBe('2-77');
    const [tdim] = parentDims(def('table_platform', 'tables'));
    expect(tdim && parentValueOf(tdim, def('table_platform', 'bases'), { id: 'app1' })).toBe('app1');
    expect(tdim && parentValueOf(tdim, def('table_platform', 'bases'), { name: 'no id' })).toBeNull();
  });

  it('pairs nested parents only with the values they were read under (`within`)', () => {
    const records = def('table_platform', 'records');
    const parents = {
      bases: ['b1', 'b2'],
      tables: [
        { value: 't1', partition: { base_id: 'b1' } },
        { value: 't2', partition: { base_id: 'b1' } },
        { value: 't3', partition: { base_id: 'b2' } },
      ],
    };
    expect(planPartitions(records, {}, parents)).toEqual([
      { base_id: 'b1', table_id_or_name: 't1' },
      { base_id: 'b1', table_id_or_name: 't2' },
      { base_id: 'b2', table_id_or_name: 't3' },
    ]);
  });

  it('nests users within workspaces for user_teams and keeps dimension order', () => {
    const userTeams = def('work_management', 'user_teams');
    const parts = planPartitions(userTeams, {}, {
      workspaces: ['w1', 'w2'],
      users: [{ value: 'u1', partition: { workspace: 'w2' } }, { value: 'u2', partition: { workspace: 'w1' } }],
    });
    expect(parts).toEqual([{ workspace: 'w1', user_gid: 'u2' }, { workspace: 'w2', user_gid: 'u1' }]);
  });

  it('refuses to plan when parent values were not resolved (a full run would tombstone everything)', () => {
    expect(() => planPartitions(def('table_platform', 'tables'), {})).toThrow(/not resolved/);
    expect(planPartitions(def('table_platform', 'tables'), {}, { bases: [] })).toEqual([]);
  });
});

describe('read-through entities and templates', () => {
  it('calls the list named by read.entity with that read’s params', () => {
    const teams = def('work_management', 'teams');
    expect(readCall(teams)).toEqual({ entity: 'workspace_teams', action: 'list' });
    expect(firstPageParams(teams, { workspace_gid: 'w1' })).toEqual({ workspace_gid: 'w1', limit: 100 });
    expect(readCall(def('work_management', 'sections'))).toEqual({ entity: 'project_sections', action: 'list' });
    expect(readCall(def('issue_tracker', 'projects'))).toEqual({ entity: 'projects', action: 'api_search' });
    expect(() => readCall(def('payments', 'balance'))).toThrow(/cannot be replicated/);
  });

  it('round-trips template values, escaping quotes inside quoted placeholders', () => {
    const t = 'project = "{value}" ORDER BY created ASC';
    expect(applyTemplate(t, 'A"B\\C')).toBe('project = "A\\"B\\\\C" ORDER BY created ASC');
    expect(matchTemplate(t, applyTemplate(t, 'A"B\\C'))).toBe('A"B\\C');
    expect(matchTemplate(t, 'assignee = me')).toBeNull();
    expect(matchTemplate('id:{value}', 'id:42')).toBe('42');
  });
});
