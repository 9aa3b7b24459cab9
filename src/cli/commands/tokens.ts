/** `syncdex tokens create --org O [--admin] [--label L] [--json]`: prints the new token once. */
import { AppError } from '../../errors.js';
import { createToken, ensureOrganization } from '../../store/tokens-repo.js';
import { output, parse, str } from '../args.js';
import { withDb } from './context.js';

export async function tokensCommand(argv: string[]): Promise<number> {
  const p = parse(argv, { org: { type: 'string' }, admin: { type: 'boolean' }, label: { type: 'string' } });
  if (p.positionals[0] !== 'create') throw new AppError('invalid_request', 'usage: syncdex tokens create --org O [--admin] [--json]');
  const org = str(p, 'org');
  if (org === undefined || org.trim() === '') throw new AppError('invalid_request', '--org is required', { path: 'org' });
  await withDb(async (db) => {
    const token = await createToken(db, await ensureOrganization(db, org), { admin: p.values.admin === true, label: str(p, 'label') ?? '' });
    output(p.values.json as boolean | undefined, { token }, () => `${token}\n(shown once; store it now)`);
  });
  return 0;
}
