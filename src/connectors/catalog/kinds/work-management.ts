import { byName, defineConnector } from '../define.js';
import { nestedLists } from './work-management/lists.js';
import { projects, teams, users, workspaces } from './work-management/projects.js';
import { attachments, sections, tags, tasks } from './work-management/tasks.js';

/**
 * Work management (gid ids; `limit`/`offset` paging with meta `next_page.offset`). Credentials
 * "not shown": personal access token, or OAuth (hour-long tokens: refresh required).
 */
export const workManagement = defineConnector({
  key: 'work_management',
  title: 'Work management',
  credentialMethods: [
    { name: 'token', fields: { personal_access_token: { required: true } } },
    {
      name: 'oauth',
      fields: { refresh_token: { required: true }, access_token: { required: false }, client_id: { required: false }, client_secret: { required: false } },
    },
  ],
  replicationConfig: {},
  entities: byName(tasks, projects, workspaces, users, teams, attachments, tags, sections, ...nestedLists),
});
