/** Writes bench results as JSON and prints the Markdown table. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Figure } from './stats.js';

function machine(): Record<string, unknown> {
  return { cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: `${os.platform()} ${os.release()}` };
}

const fmt = (x: number | null): string => (x === null || Number.isNaN(x) ? '—' : Math.abs(x) >= 100 ? String(Math.round(x)) : String(Math.round(x * 100) / 100));

export function markdownTable(figures: readonly Figure[]): string {
  const rows = figures.map((f) => `| ${f.group} | ${f.name} | ${fmt(f.value)} ${f.unit} | ${f.baseline === null ? '—' : `${fmt(f.baseline)} ${f.unit}`} | ${fmt(f.ratio)} | ${f.target} | ${f.pass === null ? 'info' : f.pass ? 'PASS' : 'MISS'} |`);
  return ['| group | figure | value | baseline | ratio | target | verdict |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}

/** Saves `bench/results/<timestamp>.json`; returns its path. */
export function saveResults(figures: readonly Figure[], params: Record<string, unknown>): string {
  const dir = path.resolve('bench/results');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, JSON.stringify({ at: new Date().toISOString(), machine: machine(), params, figures }, null, 2));
  return file;
}
