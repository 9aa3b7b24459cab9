/**
 * bull-board at /admin/queues for both BullMQ queues. bull-board's BullMQAdapter speaks to
 * BullMQ 6 queues on either backend (Redis, or the PostgreSQL backend: it reads datastore stats
 * from the backend's pool instead of Redis INFO), so it is mounted on both. Access: the admin
 * session cookie or a Bearer admin token (see admin-session.ts and the auth hook in server.ts).
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../app/deps.js';

export const QUEUES_BASE_PATH = '/admin/queues';

export function queuesBoard(app: FastifyInstance, deps: Deps): void {
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(QUEUES_BASE_PATH);
  createBullBoard({
    queues: [new BullMQAdapter(deps.syncQueue), new BullMQAdapter(deps.scheduleQueue)],
    serverAdapter,
    options: { uiConfig: { boardTitle: `syncdex queues (${deps.queues.kind})` } },
  });
  void app.register(serverAdapter.registerPlugin(), { prefix: QUEUES_BASE_PATH });
}
