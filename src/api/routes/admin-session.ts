/** The dashboard's login check and the bull-board session cookie (see ../admin-session.ts). */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../app/deps.js';
import { requireAdmin } from '../auth.js';
import { sessionValue, setSessionCookie, SESSION_TTL_SEC } from '../admin-session.js';
import { objectOf, onlyKeys } from '../params.js';
import { adminSchemas } from '../schemas.js';

export function adminSessionRoutes(app: FastifyInstance, deps: Deps): void {
  app.post('/admin/api/session', { schema: adminSchemas.session }, async (req, reply) => {
    onlyKeys(objectOf(req.body), []);
    const p = requireAdmin(req);
    setSessionCookie(req, reply, sessionValue(deps.cursorSecret, p.tokenId), deps.config.env === 'production');
    return { organization_id: p.organizationId, is_admin: p.isAdmin, queues_session_expires_in: SESSION_TTL_SEC, queue_backend: deps.queues.kind, search_backend: deps.backend.kind };
  });

  app.delete('/admin/api/session', { schema: adminSchemas.endSession }, async (req, reply) => {
    requireAdmin(req);
    setSessionCookie(req, reply, null, deps.config.env === 'production');
    return { ended: true };
  });
}
