import { defineConnector } from '../define.js';

/**
 * File-storage drive: the reference shows no entities (part 2.2 and 4.2: "not shown"), so none are
 * defined and nothing is searchable. The kind still exists so connectors can be created and their
 * credentials and replication_config validated (overview §4.1, §5.2, §7 rule 7).
 */
export const fileStorageDrive = defineConnector({
  key: 'file_storage_drive',
  title: 'File-storage drive',
  credentialMethods: [
    {
      name: 'oauth',
      fields: {
        refresh_token: { required: true },
        access_token: { required: false },
        client_id: { required: false },
        client_secret: { required: false },
      },
    },
  ],
  unavailableMethods: ['token'],
  replicationConfig: {
    folder_url: { type: 'string', required: true, description: 'URL of the drive folder to sync', format: 'url' },
    streams: { type: 'string', required: true, description: 'Configuration of the file streams to sync' },
  },
  entities: {},
});
