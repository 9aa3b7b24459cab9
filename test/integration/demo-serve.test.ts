/**
 * `syncdex demo --serve`: it stays up after the demo and prints a dashboard login link, a user
 * token and a curl line that work; Ctrl-C (SIGINT to the whole foreground process group, as a
 * terminal sends it) stops it with exit 0, leaving no process (the demo runs its stack in a
 * session of its own, see demo-session.ts), no listening port and no temp dir. (Through `npm run`
 * the same happens; npm itself then reports the interrupt as 130.)
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

function waitFor(child: ChildProcess, out: { text: string }, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${out.text}`)), timeoutMs);
    const check = (): void => {
      const m = pattern.exec(out.text);
      if (m !== null) (clearTimeout(timer), child.stdout?.off('data', check), resolve(m));
    };
    child.stdout?.on('data', check);
    check();
    child.once('exit', (code) => reject(new Error(`demo exited ${code} early:\n${out.text}`)));
  });
}

/** A process and all its descendants (ps tree walk), with their command lines. */
function processTree(root: number): Promise<string[]> {
  return new Promise((resolve) => {
    execFile('ps', ['-eo', 'pid=,ppid=,args='], (_e, stdout) => {
      const rows = stdout.split('\n').map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l)).filter((m) => m !== null).map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] as string }));
      const tree = new Set([root]);
      for (let grew = true; grew; ) {
        grew = false;
        for (const r of rows) if (tree.has(r.ppid) && !tree.has(r.pid)) (tree.add(r.pid), (grew = true));
      }
      resolve(rows.filter((r) => tree.has(r.pid)).map((r) => `${r.pid} ${r.args}`));
    });
  });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const sh = (cmd: string): Promise<string> => new Promise((resolve, reject) => execFile('sh', ['-c', cmd], (e, stdout) => (e === null ? resolve(stdout) : reject(e))));

describe('syncdex demo --serve', () => {
  it('stays up with working logins and stops cleanly on Ctrl-C', async () => {
    const { DATABASE_URL: _db, OPENSEARCH_URL: _os, ...env } = process.env;
    // A process group of its own, so the test can send SIGINT to all of it like a terminal does.
    const child = spawn(process.execPath, ['bin/syncdex.mjs', 'demo', '--serve', '--customers', '300'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = { text: '' };
    child.stdout.on('data', (c) => (out.text += String(c)));
    child.stderr.on('data', (c) => (out.text += String(c)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const [, apiUrl, admin] = await waitFor(child, out, /dashboard\s+(http:\/\/127\.0\.0\.1:\d+)\/admin#token=(sdx_\S+)/, 170_000);
      const curl = (await waitFor(child, out, /(curl -s [^\n]*\\\n[^\n]*\\\n\s+http\S+execute)\n/, 5_000))[1] as string;
      const [, user] = /user token\s+(sdx_\S+)/.exec(out.text) ?? [];
      // The admin login the dashboard does with the printed token.
      const session = await fetch(`${apiUrl}/admin/api/session`, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' }, body: '{}' });
      expect(session.status, await session.clone().text()).toBe(200);
      expect(session.headers.get('set-cookie')).toContain('sdx_admin=');
      const connectors = (await (await fetch(`${apiUrl}/admin/api/connectors`, { headers: { authorization: `Bearer ${admin}` } })).json()) as { connectors: { connector_type: string }[] };
      expect(connectors.connectors.map((c) => c.connector_type).sort()).toEqual(['applicant_tracking', 'payments']);
      expect((await fetch(`${apiUrl}/api/v1/integrations/connectors`, { headers: { authorization: `Bearer ${user}` } })).status).toBe(200);
      // The printed curl line, as printed.
      const result = JSON.parse(await sh(curl)) as { hits: unknown[]; took_ms: number };
      expect(result.hits.length).toBeGreaterThan(0);
      expect((await fetch(`${apiUrl}/docs/json`)).status).toBe(200);

      const running = await processTree(child.pid as number);
      const pids = running.map((l) => Number(l.split(' ')[0]));
      // The embedded Postgres's data dir (a Docker engine would give the demo a container instead).
      const dataDir = /-D (\S+)\/data/.exec(running.join('\n'))?.[1] ?? null;
      if (out.text.includes('store local postgres')) expect(dataDir, running.join('\n')).not.toBeNull();
      if (dataDir !== null) expect(existsSync(dataDir)).toBe(true);

      process.kill(-(child.pid as number), 'SIGINT');
      expect(await exited, out.text).toBe(0);
      expect(out.text).toContain('stopped; temporary data removed');
      expect(pids.filter(alive), running.join('\n')).toEqual([]);
      if (dataDir !== null) expect(existsSync(dataDir)).toBe(false);
      await expect(fetch(`${apiUrl}/healthz`)).rejects.toThrow();
    } finally {
      // Whatever failed, nothing of the demo may outlive the test.
      for (const line of await processTree(child.pid as number)) {
        try {
          process.kill(Number(line.split(' ')[0]), 'SIGKILL');
        } catch {
          // already gone
        }
      }
    }
  }, 240_000);
});
