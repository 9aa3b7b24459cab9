import { byType, f, searchOf } from '../../field.js';
import type { EntityDef, FieldSpec } from '../../types.js';
import { compact, iso, isoN, pageParams, readPer, ref, taskSubtype } from './shared.js';
import { stringParams } from '../../define.js';

/**
 * The list record is compact as shown: it lacks `modified_at`, the field `modified_since` filters
 * on, so a run saves where it began reading as its cursor (src/worker/saved-cursor.ts).
 */
export const tasks: EntityDef = {
  name: 'tasks',
  actions: ['list', 'get', 'search'],
  idField: 'gid',
  source: 'reference',
  fields: compact('task', { resource_subtype: taskSubtype, created_by: ref }),
  searchable: byType({
    int: 'actual_time_minutes num_hearts num_likes num_subtasks',
    string:
      'approval_status completed_at created_at due_at due_on gid html_notes modified_at name notes permalink_url ' +
      'resource_subtype resource_type start_on',
    object: 'assignee completed_by external parent workspace',
    boolean: 'completed hearted is_rendered_as_separator liked',
    array: 'custom_fields dependencies dependents followers hearts likes memberships projects tags',
  }),
  params: { ...stringParams('project workspace section assignee completed_since modified_since'), ...pageParams },
  // Rule 4: a project per call satisfies it and covers every task that belongs to a project.
  read: readPer('projects', 'project', { incremental: { param: 'modified_since', field: 'modified_at', format: 'iso_datetime' } }),
  rules: [
    '`list`: the call must include `project`, or `section`, or `workspace` together with `assignee` (overview §7 rule 4)',
    'Tasks in no project (private "My tasks" only) are not replicated: reading them needs workspace + assignee per user',
  ],
};

const attachmentFields: Record<string, FieldSpec> = {
  ...compact('attachment'),
  resource_subtype: f.oneOf(['asana', 'dropbox', 'gdrive', 'box', 'onedrive', 'external']),
  created_at: iso,
  ...Object.fromEntries(['download_url', 'permanent_url', 'view_url'].map((k) => [k, f.fmt('url', true)])),
  host: f.oneOf(['asana', 'dropbox', 'gdrive', 'box', 'external']),
  parent: ref,
  size: f.intN(),
};

/** Attachments hang off a task (`parent`), so they are read per task. */
export const attachments: EntityDef = {
  name: 'attachments',
  actions: ['list', 'get', 'download', 'search'],
  idField: 'gid',
  source: 'inferred',
  fields: attachmentFields,
  searchable: searchOf(attachmentFields, 'gid resource_type name resource_subtype created_at download_url permanent_url view_url host parent size'),
  params: { parent: { type: 'string', required: true }, ...pageParams },
  read: readPer('tasks', 'parent'),
};

const sectionFields: Record<string, FieldSpec> = { ...compact('section'), created_at: iso, project: ref };

/** No list of its own: read through `project_sections`, one partition per project. */
export const sections: EntityDef = {
  name: 'sections',
  actions: ['get', 'search'],
  idField: 'gid',
  source: 'inferred',
  fields: sectionFields,
  searchable: searchOf(sectionFields, 'gid resource_type name created_at project'),
  read: readPer('projects', 'project_gid', { entity: 'project_sections' }),
};

const tagFields: Record<string, FieldSpec> = {
  ...compact('tag'),
  color: f.oneOf(['dark-pink', 'dark-green', 'dark-blue', 'dark-red', 'light-teal', 'none'], true),
  notes: f.fmt('text', true),
  created_at: isoN,
  followers: f.arr({ gid: f.str(), name: f.fmt('name') }),
  workspace: ref,
  permalink_url: f.fmt('url', true),
};

/** No list of its own: read through `workspace_tags`, one partition per workspace. */
export const tags: EntityDef = {
  name: 'tags',
  actions: ['get', 'search'],
  idField: 'gid',
  source: 'inferred',
  fields: tagFields,
  searchable: searchOf(tagFields, 'gid resource_type name color notes created_at followers workspace permalink_url'),
  read: readPer('workspaces', 'workspace_gid', { entity: 'workspace_tags' }),
};
