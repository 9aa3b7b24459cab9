import { stringParams } from '../../define.js';
import { f } from '../../field.js';
import type { EntityDef, FieldSpec, ParamSpec, ReadSpec } from '../../types.js';
import { compact, pageParams, per, readPer, taskSubtype } from './shared.js';

// Nested lists (list only). Params beyond the shown ones are inferred: the parent gid in the path
// param the platform uses. Records are compact; each is read per parent record.

const nested = (name: string, fields: Record<string, FieldSpec>, params: Record<string, ParamSpec>, read?: ReadSpec, rules?: string[]): EntityDef => ({
  name,
  actions: ['list'],
  idField: 'gid',
  source: 'inferred',
  fields,
  params: { ...params, ...pageParams },
  ...(read === undefined ? {} : { read }),
  ...(rules === undefined ? {} : { rules }),
});

const task = compact('task', { resource_subtype: taskSubtype });
const project = compact('project');
const user = compact('user', { name: f.fmt('name') });
const team = compact('team');
const req = (names: string): Record<string, ParamSpec> =>
  Object.fromEntries(names.split(' ').map((n) => [n, { type: 'string', required: true }]));

export const nestedLists: EntityDef[] = [
  nested('project_tasks', task, { ...req('project_gid'), completed_since: { type: 'string' } }, readPer('projects', 'project_gid')),
  nested(
    'workspace_task_search',
    task,
    {
      ...req('workspace_gid'),
      ...stringParams('text assignee.any projects.any sections.any teams.any followers.any resource_subtype sort_by'),
      ...stringParams('created_at.after created_at.before modified_at.after modified_at.before due_on.after due_on.before'),
      completed: { type: 'boolean' },
      sort_ascending: { type: 'boolean' },
    },
    undefined,
    [
      '`list`: at least one search filter is required (`text`, `completed`, `assignee.any`, `projects.any`, `sections.any`, `teams.any`, `followers.any`, `created_at.after/before`, `modified_at.after/before`, `due_on.after/before`, `resource_subtype`); `sort_by`/`sort_ascending` do not count; premium account required (overview §7 rule 5)',
      'Not replicated: a search, not a collection; `tasks` covers the same records',
    ],
  ),
  nested('task_projects', project, req('task_gid'), readPer('tasks', 'task_gid')),
  nested('team_projects', project, { ...req('team_gid'), archived: { type: 'boolean' } }, readPer('teams', 'team_gid')),
  nested('workspace_projects', project, { ...req('workspace_gid'), archived: { type: 'boolean' } }, readPer('workspaces', 'workspace_gid')),
  nested('workspace_users', user, req('workspace_gid'), readPer('workspaces', 'workspace_gid')),
  nested('team_users', user, req('team_gid'), readPer('teams', 'team_gid')),
  nested('workspace_teams', team, req('workspace_gid'), readPer('workspaces', 'workspace_gid')),
  // A user's teams are asked per workspace: only users read under that same workspace.
  nested('user_teams', team, req('user_gid workspace'), {
    ...readPer('workspaces', 'workspace'),
    partitions: [per('workspaces', 'workspace'), { kind: 'parent', entity: 'users', param: 'user_gid', within: 'workspace' }],
  }),
  nested('workspace_tags', compact('tag'), req('workspace_gid'), readPer('workspaces', 'workspace_gid')),
  nested('project_sections', compact('section'), req('project_gid'), readPer('projects', 'project_gid')),
  nested('task_subtasks', task, req('task_gid'), readPer('tasks', 'task_gid')),
  nested('task_dependencies', task, req('task_gid'), readPer('tasks', 'task_gid')),
  nested('task_dependents', task, req('task_gid'), readPer('tasks', 'task_gid')),
];
