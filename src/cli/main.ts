/** `syncdex <command>`: dispatch, one error printer, exit codes. */
import { isAppError } from '../errors.js';
import { catalogCommand } from './commands/catalog.js';
import { connectorsCommand } from './commands/connectors.js';
import { demoCommand } from './commands/demo.js';
import { opensearchCommand } from './commands/opensearch.js';
import { operatorCommand } from './commands/operators.js';
import { replayCommand, runsCommand } from './commands/runs.js';
import { searchCommand } from './commands/search.js';
import { apiCommand, migrateCommand, sandboxCommand, workerCommand } from './commands/serve.js';
import { syncCommand } from './commands/sync.js';
import { tokensCommand } from './commands/tokens.js';

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  migrate: migrateCommand,
  api: apiCommand,
  worker: workerCommand,
  sandbox: sandboxCommand,
  demo: demoCommand,
  catalog: catalogCommand,
  connectors: connectorsCommand,
  sync: syncCommand,
  search: searchCommand,
  runs: runsCommand,
  replay: replayCommand,
  cancel: operatorCommand('cancel'),
  pause: operatorCommand('pause'),
  resume: operatorCommand('resume'),
  resync: operatorCommand('resync'),
  reset: operatorCommand('reset'),
  reindex: operatorCommand('reindex'),
  tokens: tokensCommand,
  opensearch: opensearchCommand,
};

const USAGE = `usage: syncdex <command> [options]

  migrate                         apply database migrations (idempotent)
  api                             serve the HTTP API (and the /admin dashboard) on $PORT
  worker [--concurrency N]        run sync jobs
  sandbox [--size N] [--seed S] [--port N]   serve the sandbox connector runtime on --port or $SANDBOX_PORT
  demo [--customers N] [--search postgres|opensearch] [--serve]   everything embedded: sync, run searches; --serve keeps it running (Ctrl-C stops)
  catalog [--connector C]         connector kinds → entities: actions, id field, searchable fields, source
  connectors create --org O --type T --name N (--credentials-file PATH|- | --credentials JSON | --oauth-secret-id ID) [--config JSON] [--user U]
  connectors list [--org O] [--limit N] [--cursor C] | connectors show <connector>
  sync <connector> [--entity E] [--mode full|incremental|auto] [--wait]
  search <connector> <entity> --filter JSON [--sort JSON] [--limit N] [--cursor C] [--fields JSON]
  runs [--status S[,S]] [--connector C] [--entity E] [--since T] [--until T] [--limit N] [--cursor C] | runs show <run>
  replay <run> [--from-start] [--wait]
  cancel <run> | pause <connector> | resume <connector>
  resync <connector> <entity> | reset <connector> <entity> | reindex <connector_type> <entity>
  tokens create --org O [--admin] [--label L] | tokens list [--org O] | tokens revoke <token-id>
  opensearch [--port N] [--heap-mb N] [--build-only]   a local OpenSearch node (Java + Maven): prints its URL, Ctrl-C stops it

Every command that prints data accepts --json. The exit status is 1 when a command fails
(a run that ends failed or cancelled under --wait included), 2 for a missing or unknown command;
--help prints this and exits 0.`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  // Asking for help succeeds; no command or an unknown one is a usage error.
  const help = name === '--help' || name === '-h' || name === 'help' || (command !== undefined && rest.includes('--help'));
  if (help || command === undefined) {
    (help ? process.stdout : process.stderr).write(`${USAGE}\n`);
    return help ? 0 : 2;
  }
  return command(rest);
}

main(process.argv.slice(2)).then(
  async (code) => exitAfterFlush(code),
  (e: unknown) => {
    // The CLI is the operator's tool: it shows the detail a tenant never sees.
    const msg = isAppError(e) ? `${e.code}: ${e.message}${e.path !== undefined ? ` (at ${e.path})` : ''}${e.detail !== undefined ? ` [${e.detail}]` : ''}` : e instanceof Error ? e.message : String(e);
    process.stderr.write(`syncdex: ${msg}\n`);
    void exitAfterFlush(1);
  },
);

/**
 * Exits once stdout and stderr have handed everything to the OS: on a pipe, writes are
 * asynchronous, and exiting right away cut long outputs (`catalog --json`) short.
 */
async function exitAfterFlush(code: number): Promise<never> {
  await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((resolve) => s.write('', () => resolve()))));
  process.exit(code);
}
