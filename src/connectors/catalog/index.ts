import { AppError } from '../../errors.js';
import { adPlatformMarketing } from './kinds/ad-platform-marketing.js';
import { applicantTracking } from './kinds/applicant-tracking.js';
import { crm } from './kinds/crm.js';
import { customerMessaging } from './kinds/customer-messaging.js';
import { emailCampaigns } from './kinds/email-campaigns.js';
import { emailMarketing } from './kinds/email-marketing.js';
import { fileStorageDrive } from './kinds/file-storage-drive.js';
import { issueTracker } from './kinds/issue-tracker.js';
import { liveChatSupport } from './kinds/live-chat-support.js';
import { payments } from './kinds/payments.js';
import { retailAdvertising } from './kinds/retail-advertising.js';
import { salesCallIntelligence } from './kinds/sales-call-intelligence.js';
import { tablePlatform } from './kinds/table-platform.js';
import { taskTracker } from './kinds/task-tracker.js';
import { teamChat } from './kinds/team-chat.js';
import { usageBilling } from './kinds/usage-billing.js';
import { workManagement } from './kinds/work-management.js';
import type { ConnectorDef, EntityDef } from './types.js';

export type * from './types.js';

/** Every connector kind, keyed by its neutral key (DESIGN §4). */
export const catalog: Readonly<Record<string, ConnectorDef>> = Object.freeze(
  Object.fromEntries(
    [
      adPlatformMarketing,
      fileStorageDrive,
      payments,
      issueTracker,
      taskTracker,
      liveChatSupport,
      teamChat,
      salesCallIntelligence,
      applicantTracking,
      emailMarketing,
      crm,
      usageBilling,
      retailAdvertising,
      emailCampaigns,
      customerMessaging,
      workManagement,
      tablePlatform,
    ].map((def) => [def.key, def]),
  ),
);

/** The connector kind for a key, or an `invalid_request` naming the valid keys. */
export function getConnectorDef(key: string, path = 'connector_type'): ConnectorDef {
  const def = Object.hasOwn(catalog, key) ? catalog[key] : undefined;
  if (def === undefined) {
    throw new AppError('invalid_request', `unknown connector_type "${key}"; expected one of: ${Object.keys(catalog).join(', ')}`, { path });
  }
  return def;
}

/** The entity of a connector kind, or a `not_found`-free `invalid_request` naming the valid entities. */
export function getEntityDef(connector: ConnectorDef, entity: string, path = 'entity'): EntityDef {
  const def = Object.hasOwn(connector.entities, entity) ? connector.entities[entity] : undefined;
  if (def === undefined) {
    throw new AppError('invalid_request', `unknown entity "${entity}" for ${connector.key}; expected one of: ${Object.keys(connector.entities).join(', ')}`, { path });
  }
  return def;
}

/** Entities that list `search` (they are replicated and indexed). */
export function searchableEntities(connector: ConnectorDef): EntityDef[] {
  return Object.values(connector.entities).filter((e) => e.actions.includes('search'));
}
