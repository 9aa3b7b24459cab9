/**
 * `syncdex tokens create --org O [--admin] [--label L]` prints a new token once (with its id);
 * `tokens list [--org O]` shows ids, labels and states, never a token; `tokens revoke <id>`.
 */
import { AppError } from '../../errors.js';
import { createToken, ensureOrganization, listTokens, revokeToken } from '../../store/tokens-repo.js';
import { output, parse, positional, str } from '../args.js';
import { withDb } from './context.js';

const USAGE = 'usage: syncdex tokens create --org O [--admin] [--label L] | tokens list [--org O] | tokens revoke <token-id>';

export async function tokensCommand(argv: string[]): Promise<number> {
  const p = parse(argv, { org: { type: 'string' }, admin: { type: 'boolean' }, label: { type: 'string' } });
  const json = p.values.json as boolean | undefined;
  const [sub, ...rest] = p.positionals;
  if (sub === 'create') {
    const org = str(p, 'org');
    if (org === undefined || org.trim() === '') throw new AppError('invalid_request', '--org is required', { path: 'org' });
    await withDb(async (db) => {
      const { token, id } = await createToken(db, await ensureOrganization(db, org), { admin: p.values.admin === true, label: str(p, 'label') ?? '' });
      output(json, { token, id }, () => `${token}\n(shown once; store it now. Its id, to revoke it: ${id})`);
    });
    return 0;
  }
  if (sub === 'list') {
    await withDb(async (db) => {
      const tokens = await listTokens(db, str(p, 'org'));
      output(json, tokens, () =>
        tokens.map((t) => `${t.id}  ${t.organization}  ${t.is_admin ? 'admin' : 'tenant'}  ${t.revoked_at === null ? 'live' : `revoked ${t.revoked_at.toISOString()}`}  ${t.label}`).join('\n') || 'no tokens',
      );
    });
    return 0;
  }
  if (sub === 'revoke') {
    const id = positional(rest, 0, 'token-id');
    await withDb(async (db) => {
      if (!(await revokeToken(db, id))) throw new AppError('not_found', `no live token with id ${id}`, { path: 'token-id' });
      output(json, { id, revoked: true }, () => `revoked ${id}`);
    });
    return 0;
  }
  throw new AppError('invalid_request', USAGE);
}
