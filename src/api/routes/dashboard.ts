/**
 * The operators' dashboard at /admin: one static page and its ES modules from ../dashboard/,
 * read once at start-up (no build step). The page holds no data; it logs in with an admin token
 * kept in sessionStorage and reads /admin/api. A strict Content-Security-Policy (no inline
 * script, no eval, same-origin only) backs up the page's own rule of building DOM with
 * textContent: even an injected tag could not run a script.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError } from '../../errors.js';

const DIR = fileURLToPath(new URL('../dashboard/', import.meta.url));
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };

export const DASHBOARD_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Every servable file by name; anything else under /admin/assets is a 404 (no path is ever joined). */
function loadAssets(): Map<string, { body: Buffer; type: string }> {
  const out = new Map<string, { body: Buffer; type: string }>();
  for (const name of readdirSync(DIR)) {
    const type = TYPES[extname(name)];
    if (type !== undefined) out.set(name, { body: readFileSync(`${DIR}${name}`), type });
  }
  return out;
}

function send(reply: FastifyReply, file: { body: Buffer; type: string }): FastifyReply {
  return reply
    .header('content-security-policy', DASHBOARD_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cache-control', 'no-cache')
    .type(file.type)
    .send(file.body);
}

export function dashboardRoutes(app: FastifyInstance): void {
  const assets = loadAssets();
  const page = assets.get('index.html');
  if (page === undefined) throw new AppError('internal', `dashboard page missing in ${DIR}`);
  const hide = { schema: { hide: true } };
  app.get('/admin', hide, async (_req, reply) => send(reply, page));
  app.get('/admin/', hide, async (_req, reply) => send(reply, page));
  app.get<{ Params: { file: string } }>('/admin/assets/:file', hide, async (req, reply) => {
    const file = req.params.file === 'index.html' ? undefined : assets.get(req.params.file);
    if (file === undefined) throw new AppError('not_found', 'no such dashboard asset', { path: 'file' });
    return send(reply, file);
  });
}
