import { byName, defineConnector } from '../define.js';
import { byType, each, f, searchOf } from '../field.js';
import type { EntityDef, FieldSpec, ParamSpec, ReadSpec } from '../types.js';

const iso = f.fmt('iso_datetime');
const isoN = f.fmt('iso_datetime', true);
const FIRST_RULE = 'Task tracker `list` actions: `first` at most 250 (overview §8)';

/** Reference 4.5 `list` (issues, projects); teams, users and comments are "not shown" and assumed alike. */
const listParams: Record<string, ParamSpec> = { first: { type: 'int', min: 1, max: 250 }, after: { type: 'string' } };
const read: ReadSpec = {
  action: 'list',
  pageSize: { param: 'first', max: 250 },
  paging: { style: 'token', param: 'after', from: 'endCursor', flag: { path: 'hasNextPage', doneWhen: false } },
};

const issues: EntityDef = {
  name: 'issues',
  actions: ['list', 'get', 'create', 'update', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.str({ format: 'id' }),
    title: f.fmt('title'),
    description: f.fmt('text', true),
    state: f.objN({ id: f.str(), name: f.oneOf(['Backlog', 'Todo', 'In Progress', 'Done', 'Canceled']) }),
    priority: f.numN(),
    assignee: f.objN({ id: f.str(), name: f.fmt('name') }),
    createdAt: iso,
    updatedAt: iso,
  },
  searchable: byType({
    string:
      'addedToCycleAt addedToProjectAt addedToTeamAt assigneeId branchName canceledAt completedAt createdAt creatorId ' +
      'cycleId description descriptionState dueDate id identifier integrationSourceType milestoneId parentId ' +
      'priorityLabel projectId slaType sourceCommentId startedAt stateId teamId title updatedAt url',
    object: 'assignee attachments creator cycle labels parent project projectMilestone relations state subscribers team',
    array: 'attachmentIds labelIds previousIdentifiers reactionData relationIds subscriberIds',
    number: 'customerTicketCount estimate number priority prioritySortOrder sortOrder subIssueSortOrder',
  }),
  params: listParams,
  read,
  rules: [FIRST_RULE],
};

const projects: EntityDef = {
  name: 'projects',
  actions: ['list', 'get', 'search'],
  idField: 'id',
  source: 'reference',
  fields: {
    id: f.str({ format: 'id' }),
    name: f.fmt('title'),
    description: f.fmt('text', true),
    state: f.oneOf(['planned', 'started', 'paused', 'completed', 'canceled'], true),
    ...each(f.fmt('date', true), 'startDate targetDate'),
    lead: f.objN({ id: f.str(), name: f.fmt('name') }),
    createdAt: iso,
    updatedAt: iso,
  },
  searchable: byType({
    string:
      'canceledAt color completedAt content contentState convertedFromIssueId createdAt creatorId description health ' +
      'healthUpdatedAt icon id leadId name slugId startDate startedAt statusId targetDate updateRemindersDay updatedAt url',
    object: 'convertedFromIssue creator lead status teams',
    array: 'completedIssueCountHistory completedScopeHistory inProgressScopeHistory issueCountHistory scopeHistory teamIds',
    number: 'priority prioritySortOrder progress scope sortOrder updateRemindersHour',
  }),
  params: listParams,
  read,
  rules: [FIRST_RULE],
};

const teamFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  name: f.fmt('company'),
  key: f.str(),
  description: f.fmt('text', true),
  icon: f.strN(),
  color: f.fmt('color', true),
  private: f.bool(),
  timezone: f.fmt('timezone'),
  issueCount: f.int(),
  createdAt: iso,
  updatedAt: iso,
  archivedAt: isoN,
};

const userFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  name: f.fmt('name'),
  displayName: f.str(),
  email: f.fmt('email'),
  ...each(f.bool(), 'active admin guest'),
  avatarUrl: f.fmt('url', true),
  timezone: f.fmt('timezone', true),
  createdAt: iso,
  updatedAt: iso,
  lastSeen: isoN,
};

const commentFields: Record<string, FieldSpec> = {
  id: f.str({ format: 'id' }),
  body: f.fmt('text'),
  issueId: f.str({ format: 'id' }),
  userId: f.strN({ format: 'id' }),
  user: f.objN({ id: f.str(), name: f.fmt('name') }),
  url: f.fmt('url'),
  createdAt: iso,
  updatedAt: iso,
  editedAt: isoN,
};

const inferred = (name: string, fields: Record<string, FieldSpec>, searchable: string, actions: EntityDef['actions']): EntityDef => ({
  name,
  actions,
  idField: 'id',
  source: 'inferred',
  fields,
  searchable: searchOf(fields, searchable),
  params: listParams,
  read,
  rules: [FIRST_RULE],
});

/** Task tracker, graph-query variant (paging `first`/`after`, meta `hasNextPage`/`endCursor`). */
export const taskTracker = defineConnector({
  key: 'task_tracker',
  title: 'Task tracker (graph-query variant)',
  credentialMethods: [
    { name: 'token', fields: { api_key: { required: true } } },
    { name: 'oauth', fields: { access_token: { required: true } } },
  ],
  replicationConfig: {},
  entities: byName(
    issues,
    projects,
    inferred('teams', teamFields, 'id name key description icon color private timezone issueCount createdAt updatedAt archivedAt', ['list', 'get', 'search']),
    inferred('users', userFields, 'id name displayName email active admin guest avatarUrl timezone createdAt updatedAt lastSeen', ['list', 'get', 'search']),
    inferred('comments', commentFields, 'id body issueId userId user url createdAt updatedAt editedAt', ['list', 'get', 'create', 'update', 'search']),
  ),
});
