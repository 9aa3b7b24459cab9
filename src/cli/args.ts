/** Tiny argument helpers shared by the CLI commands. */
import { readFile } from 'node:fs/promises';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { AppError } from '../errors.js';

export type Options = NonNullable<ParseArgsConfig['options']>;

/** Parsed flags and positionals of one command. */
export interface Parsed {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: string[];
}

/** Parses argv for one command; unknown flags are errors naming the flag. */
export function parse(argv: string[], options: Options): Parsed {
  try {
    const r = parseArgs({ args: argv, options: { json: { type: 'boolean' }, help: { type: 'boolean' }, ...options }, allowPositionals: true, strict: true });
    return { values: r.values as Parsed['values'], positionals: r.positionals };
  } catch (e) {
    throw new AppError('invalid_request', (e as Error).message);
  }
}

/** Parses a JSON flag value, naming the flag when it is not JSON. */
export function jsonFlag(value: string | undefined, flag: string): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    // The value is not echoed: --credentials carries secrets, and shell output ends up in logs.
    throw new AppError('invalid_request', `--${flag} must be valid JSON (${value.length} characters given; quote keys and strings with double quotes)`, { path: flag });
  }
}

const MAX_FLAG_FILE = 1024 * 1024;

/**
 * The text of a file flag (`-` reads stdin): secrets passed this way stay out of the process list
 * and shell history, where a flag's value is visible to every user of the machine.
 */
export async function readFlagFile(path: string, flag: string): Promise<string> {
  let buf: Buffer;
  try {
    buf = path === '-' ? await readStdin() : await readFile(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? 'error';
    throw new AppError('invalid_request', `--${flag}: cannot read ${path === '-' ? 'stdin' : path} (${code})`, { path: flag });
  }
  if (buf.length > MAX_FLAG_FILE) throw new AppError('invalid_request', `--${flag}: ${buf.length} bytes is over the 1 MiB limit`, { path: flag });
  return buf.toString('utf8');
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    chunks.push(chunk as Buffer);
    size += (chunk as Buffer).length;
    if (size > MAX_FLAG_FILE) break;
  }
  return Buffer.concat(chunks);
}

/** A required positional argument. */
export function positional(list: string[], index: number, name: string): string {
  const v = list[index];
  if (v === undefined) throw new AppError('invalid_request', `missing <${name}>`, { path: name });
  return v;
}

/** Prints data: JSON with --json, else the human rendering. */
export function output(json: boolean | undefined, data: unknown, human: () => string): void {
  process.stdout.write(`${json === true ? JSON.stringify(data, null, 2) : human()}\n`);
}

/** A string flag, or undefined. */
export function str(p: Parsed, name: string): string | undefined {
  const v = p.values[name];
  return typeof v === 'string' ? v : undefined;
}

/** An integer flag within [min, max] (default: at least 1), or undefined; anything else is an error naming the flag. */
export function int(p: Parsed, name: string, bounds: { min?: number; max?: number } = {}): number | undefined {
  const v = str(p, name);
  if (v === undefined) return undefined;
  const { min = 1, max = Number.MAX_SAFE_INTEGER } = bounds;
  // Number('') and Number(' ') are 0: only digits count as an integer here.
  const n = /^\s*\d+\s*$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new AppError('invalid_request', `--${name} must be an integer from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'any size' : max}, got "${v}"`, { path: name });
  return n;
}
