import { byName, defineConnector } from '../define.js';
import { byType, each, f, searchOf } from '../field.js';
import type { EntityDef, FieldSpec, ParamSpec, ReadSpec } from '../types.js';

const iso = f.fmt('iso_datetime');
const person = f.objN({ accountId: f.str({ format: 'id' }), displayName: f.fmt('name'), emailAddress: f.fmt('email', true) });

/** Reference 4.4 `issues.api_search`. */
const issueSearchParams: Record<string, ParamSpec> = {
  jql: { type: 'string', required: true },
  nextPageToken: { type: 'string' },
  maxResults: { type: 'int', min: 1, max: 5000 },
  fields: { type: 'string' },
  expand: { type: 'string' },
  properties: { type: 'string' },
  fieldsByKeys: { type: 'boolean', default: false },
  failFast: { type: 'boolean', default: false },
};

const tokenPaging = {
  style: 'token',
  param: 'nextPageToken',
  from: 'nextPageToken',
  flag: { path: 'isLast', doneWhen: true },
} as const;

/**
 * Rule 1 rejects unbounded JQL, and a date bound alone is not enough, so every read is restricted
 * to one project. Ordering by `created` (immutable) keeps token paging stable while issues change.
 */
const issues: EntityDef = {
  name: 'issues',
  actions: ['api_search', 'create', 'get', 'update', 'delete', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.str({ format: 'id' }),
    key: f.str(),
    self: f.fmt('url'),
    expand: f.strN(),
    fields: f.obj({
      summary: f.fmt('title'),
      status: f.obj({ name: f.oneOf(['To Do', 'In Progress', 'Done']) }),
      issuetype: f.obj({ name: f.oneOf(['Bug', 'Task', 'Story', 'Epic', 'Subtask']) }),
      priority: f.objN({ name: f.oneOf(['Highest', 'High', 'Medium', 'Low', 'Lowest']) }),
      project: f.obj({ id: f.str(), key: f.str() }),
      assignee: person,
      reporter: person,
      labels: f.arr('string'),
      created: iso,
      updated: iso,
    }),
  },
  searchable: byType({
    object:
      'changelog editmeta fields fieldsToInclude names operations properties renderedFields schema versionedRepresentations',
    string: 'created expand id key projectId projectKey self updated',
    array: 'transitions',
  }),
  // The reference's searchable names for what the record keeps under `fields`.
  derived: { created: 'fields.created', updated: 'fields.updated', projectId: 'fields.project.id', projectKey: 'fields.project.key' },
  params: issueSearchParams,
  read: {
    action: 'api_search',
    pageSize: { param: 'maxResults', max: 5000 },
    paging: tokenPaging,
    partitions: [{ kind: 'parent', entity: 'projects', param: 'jql', from: 'key', template: 'project = "{value}" ORDER BY created ASC' }],
  },
  rules: [
    'api_search: a query without a restricting condition (project, assignee, reporter, issue key, sprint, or a date filter combined with a project restriction) is rejected with 400; ordering alone is unbounded (overview §7 rule 1)',
    'delete: an issue with subtasks cannot be deleted unless `deleteSubtasks` is true (overview §7 rule 2)',
    'api_search: `maxResults` returns at most 5000 issues; `properties` accepts at most 5 keys (overview §8)',
  ],
};

const projectFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  key: f.str(),
  name: f.fmt('title'),
  self: f.fmt('url'),
  description: f.fmt('text', true),
  projectTypeKey: f.oneOf(['software', 'service_desk', 'business']),
  simplified: f.bool(),
  style: f.oneOf(['classic', 'next-gen']),
  ...each(f.bool(), 'isPrivate archived'),
  lead: person,
  projectCategory: f.objN({ id: f.str(), name: f.str() }),
  avatarUrls: f.obj(),
};

/** No list action: read through api_search; its params are "not shown" and inferred. */
const projects: EntityDef = {
  name: 'projects',
  actions: ['api_search', 'get', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: projectFields,
  searchable: searchOf(projectFields, 'id key name self description projectTypeKey simplified style isPrivate archived lead projectCategory'),
  params: {
    query: { type: 'string' },
    orderBy: { type: 'string' },
    nextPageToken: { type: 'string' },
    maxResults: { type: 'int', min: 1, max: 100 },
  },
  read: { action: 'api_search', pageSize: { param: 'maxResults', max: 100 }, paging: tokenPaging },
};

const userFields: Record<string, FieldSpec> = {
  accountId: f.str({ format: 'id' }),
  accountType: f.oneOf(['atlassian', 'app', 'customer']),
  emailAddress: f.fmt('email', true),
  displayName: f.fmt('name'),
  active: f.bool(),
  timeZone: f.fmt('timezone', true),
  locale: f.strN(),
  self: f.fmt('url'),
  avatarUrls: f.obj(),
};

/**
 * Offset lists end on a short page, so the page size must be one the server never caps below:
 * 50 is the documented default of these endpoints ("not shown" here).
 */
const offsetParams = (max: number): Record<string, ParamSpec> => ({
  startAt: { type: 'int', min: 0 },
  maxResults: { type: 'int', min: 1, max },
});
const offsetRead = (max: number): ReadSpec => ({
  action: 'list',
  pageSize: { param: 'maxResults', max },
  paging: { style: 'offset', param: 'startAt', total: 'total' },
});

const users: EntityDef = {
  name: 'users',
  actions: ['get', 'list', 'api_search', 'search'],
  idField: 'accountId',
  source: 'inferred',
  fields: userFields,
  searchable: searchOf(userFields, 'accountId accountType emailAddress displayName active timeZone locale self'),
  params: offsetParams(50),
  read: offsetRead(50),
};

const fieldFields: Record<string, FieldSpec> = {
  id: f.str(),
  key: f.str(),
  name: f.fmt('title'),
  untranslatedName: f.strN(),
  ...each(f.bool(), 'custom orderable navigable searchable'),
  clauseNames: f.arr('string'),
  schema: f.objN({ type: f.oneOf(['string', 'number', 'array', 'user', 'date', 'option']), system: f.strN(), custom: f.strN() }),
};

const issue_fields: EntityDef = {
  name: 'issue_fields',
  actions: ['list', 'api_search', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: fieldFields,
  searchable: searchOf(fieldFields, 'id key name untranslatedName custom orderable navigable searchable clauseNames schema'),
  params: {},
  // The field list is small and comes back whole.
  read: { action: 'list', paging: { style: 'none' } },
};

/** Comments and worklogs hang off one issue each; `issueId` is carried so they can be joined back. */
const perIssue: ReadSpec = {
  ...offsetRead(100),
  partitions: [{ kind: 'parent', entity: 'issues', param: 'issueIdOrKey' }],
};

const commentFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  issueId: f.str({ format: 'id' }),
  self: f.fmt('url'),
  author: person,
  updateAuthor: person,
  body: f.obj({ type: f.konst('doc'), version: f.int(), content: f.arr('object') }),
  renderedBody: f.fmt('text', true),
  created: iso,
  updated: iso,
  jsdPublic: f.bool(),
  visibility: f.objN({ type: f.oneOf(['group', 'role']), value: f.str() }),
};

const issue_comments: EntityDef = {
  name: 'issue_comments',
  actions: ['list', 'create', 'get', 'update', 'delete', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: commentFields,
  searchable: searchOf(commentFields, 'id issueId self author updateAuthor body renderedBody created updated jsdPublic visibility'),
  params: { issueIdOrKey: { type: 'string', required: true }, ...offsetParams(100), orderBy: { type: 'string', enum: ['created', '-created'] } },
  read: perIssue,
};

const worklogFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  issueId: f.str({ format: 'id' }),
  self: f.fmt('url'),
  author: person,
  updateAuthor: person,
  comment: f.objN(),
  started: iso,
  timeSpent: f.str(),
  timeSpentSeconds: f.int(),
  created: iso,
  updated: iso,
};

const issue_worklogs: EntityDef = {
  name: 'issue_worklogs',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'inferred',
  fields: worklogFields,
  searchable: searchOf(worklogFields, 'id issueId self author updateAuthor comment started timeSpent timeSpentSeconds created updated'),
  params: { issueIdOrKey: { type: 'string', required: true }, ...offsetParams(100), startedAfter: { type: 'int' } },
  read: perIssue,
};

/** Assignment only (update): not a readable collection. */
const issues_assignee: EntityDef = {
  name: 'issues_assignee',
  actions: ['update'],
  idField: 'issueIdOrKey',
  source: 'inferred',
  fields: { issueIdOrKey: f.str(), accountId: f.strN({ format: 'id' }) },
};

/** Issue tracker, query-language variant. Credentials "not shown": API token on a site, or OAuth. */
export const issueTracker = defineConnector({
  key: 'issue_tracker',
  title: 'Issue tracker (query-language variant)',
  credentialMethods: [
    { name: 'token', fields: { email: { required: true }, api_token: { required: true }, domain: { required: true } } },
    {
      name: 'oauth',
      fields: {
        refresh_token: { required: true },
        domain: { required: true },
        access_token: { required: false },
        client_id: { required: false },
        client_secret: { required: false },
      },
    },
  ],
  replicationConfig: {},
  entities: byName(issues, projects, users, issue_fields, issue_comments, issue_worklogs, issues_assignee),
});
