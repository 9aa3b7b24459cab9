/** `syncdex <command>`: dispatch, one error printer, exit codes. */
import { isAppError } from '../errors.js';
import { demoCommand } from './commands/demo.js';
import { searchCommand, syncCommand, tokensCommand } from './commands/ops.js';
import { apiCommand, migrateCommand, sandboxCommand, workerCommand } from './commands/serve.js';

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  migrate: migrateCommand,
  api: apiCommand,
  worker: workerCommand,
  sandbox: sandboxCommand,
  demo: demoCommand,
  sync: syncCommand,
  search: searchCommand,
  tokens: tokensCommand,
};

const USAGE = `usage: syncdex <command> [options]

  migrate                         apply database migrations (idempotent)
  api                             serve the HTTP API on $PORT
  worker [--concurrency N]        run sync jobs
  sandbox [--size N] [--seed S]   serve the sandbox connector runtime on $SANDBOX_PORT
  demo [--customers N]            everything embedded: sync customers, run searches
  sync <connector> [--entity E] [--mode full|incremental] [--wait]
  search <connector> <entity> --filter JSON [--sort JSON] [--limit N] [--cursor C] [--fields JSON]
  tokens create --org O [--admin]

Every command that prints data accepts --json.`;

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (command === undefined || rest.includes('--help')) {
    process.stdout.write(`${USAGE}\n`);
    return name === undefined || command === undefined ? 2 : 0;
  }
  return command(rest);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    const msg = isAppError(e) ? `${e.code}: ${e.message}${e.path !== undefined ? ` (at ${e.path})` : ''}` : e instanceof Error ? e.message : String(e);
    process.stderr.write(`syncdex: ${msg}\n`);
    process.exit(1);
  },
);
