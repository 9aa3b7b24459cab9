import { byType, each, f, searchOf } from '../../field.js';
import type { EntityDef, FieldSpec } from '../../types.js';
import { compact, iso, isoN, pageParams, pagedRead, readPer, ref } from './shared.js';

const people = f.arr({ gid: f.str({ format: 'id' }), name: f.fmt('name') });
const access = f.oneOf(['admin', 'editor', 'commenter', 'viewer']);

/**
 * Fields: the list record (`gid`, `resource_type`, `name`) merged with the richer get record, so
 * generated and replicated records can carry what the searchable fields name.
 */
export const projects: EntityDef = {
  name: 'projects',
  actions: ['list', 'get', 'search'],
  idField: 'gid',
  source: 'reference',
  fields: {
    ...compact('project'),
    ...each(f.bool(), 'archived completed public'),
    color: f.oneOf(['dark-pink', 'dark-green', 'dark-blue', 'dark-red', 'light-teal', 'none'], true),
    completed_at: isoN,
    created_at: iso,
    ...each(f.objN(), 'current_status current_status_update'),
    custom_fields: f.arr('object'),
    default_access_level: access,
    default_view: f.oneOf(['list', 'board', 'calendar', 'timeline']),
    ...each(f.fmt('date', true), 'due_on due_date start_on'),
    followers: people,
    members: people,
    minimum_access_level_for_customization: access,
    minimum_access_level_for_sharing: access,
    modified_at: iso,
    notes: f.fmt('text'),
    owner: ref,
    permalink_url: f.fmt('url'),
    privacy_setting: f.oneOf(['public_to_workspace', 'private_to_team', 'private']),
    team: ref,
    workspace: ref,
  },
  searchable: byType({
    boolean: 'archived is_template public',
    string:
      'color created_at default_view due_date due_on gid html_notes icon modified_at name notes permalink_url resource_type start_on',
    object: 'current_status owner team workspace',
    array: 'custom_field_settings custom_fields followers members',
  }),
  params: { workspace: { type: 'string' }, team: { type: 'string' }, archived: { type: 'boolean' }, ...pageParams },
  // Per workspace: unscoped project lists time out on large accounts.
  read: readPer('workspaces', 'workspace'),
};

const workspaceFields: Record<string, FieldSpec> = {
  ...compact('workspace', { name: f.fmt('company') }),
  is_organization: f.bool(),
  email_domains: f.arr('string'),
};

export const workspaces: EntityDef = {
  name: 'workspaces',
  actions: ['list', 'get', 'search'],
  idField: 'gid',
  source: 'inferred',
  fields: workspaceFields,
  searchable: searchOf(workspaceFields, 'gid resource_type name is_organization email_domains'),
  params: pageParams,
  read: pagedRead,
};

const userFields: Record<string, FieldSpec> = {
  ...compact('user', { name: f.fmt('name') }),
  email: f.fmt('email'),
  photo: f.objN({ image_128x128: f.fmt('url', true) }),
  workspaces: f.arr({ gid: f.str(), name: f.fmt('company') }),
};

/** Per workspace; a user in several workspaces is the same record each time. */
export const users: EntityDef = {
  name: 'users',
  actions: ['list', 'get', 'search'],
  idField: 'gid',
  source: 'inferred',
  fields: userFields,
  searchable: searchOf(userFields, 'gid resource_type name email photo workspaces'),
  params: { workspace: { type: 'string' }, team: { type: 'string' }, ...pageParams },
  read: readPer('workspaces', 'workspace'),
};

const teamFields: Record<string, FieldSpec> = {
  ...compact('team'),
  description: f.fmt('text', true),
  html_description: f.strN(),
  organization: ref,
  permalink_url: f.fmt('url'),
  visibility: f.oneOf(['secret', 'request_to_join', 'public']),
};

/** No list of its own: read through `workspace_teams`, one partition per workspace. */
export const teams: EntityDef = {
  name: 'teams',
  actions: ['get', 'search'],
  idField: 'gid',
  source: 'inferred',
  fields: teamFields,
  searchable: searchOf(teamFields, 'gid resource_type name description organization permalink_url visibility'),
  read: readPer('workspaces', 'workspace_gid', { entity: 'workspace_teams' }),
};
