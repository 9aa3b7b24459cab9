/**
 * Where a phase's CPU went, per process group, from two `/proc` snapshots (Linux only). The
 * ingest ratio compares a three-process pipeline with one COPY backend; this says which process
 * spent what, so a MISS can be read without a profiler.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** CPU ticks (user, system) and minor page faults of every live process, with the group it belongs to. */
export interface CpuSnapshot {
  readonly procs: ReadonlyMap<number, { readonly group: string; readonly user: number; readonly system: number; readonly minflt: number }>;
  /** Whole-machine ticks from /proc/stat: busy (everything but idle and iowait) and idle. */
  readonly machine: { readonly busy: number; readonly idle: number };
}

/** Microseconds of CPU per record, per group, over a phase, and the group's minor page faults per record. */
export type CpuShare = Record<string, { user: number; system: number; faults: number }>;

function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

const TICKS = clockTicks();

function readProc(pid: number): { cmd: string; user: number; system: number; minflt: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself contain spaces and parentheses.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    return { cmd, user: Number(rest[11]), system: Number(rest[12]), minflt: Number(rest[7]) };
  } catch {
    return null; // exited between readdir and read
  }
}

/** The machine's CPU ticks from /proc/stat: user, nice, system, idle, iowait, irq, softirq, steal, ... */
function machineTicks(): number[] {
  return fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
}

/** Takes a snapshot; `groupOf` names a process's group from its pid and command line. */
export function cpuSnapshot(groupOf: (pid: number, cmd: string) => string): CpuSnapshot | null {
  if (!fs.existsSync('/proc/stat')) return null;
  const procs = new Map<number, { group: string; user: number; system: number; minflt: number }>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const p = readProc(Number(name));
    if (p !== null) procs.set(Number(name), { group: groupOf(Number(name), p.cmd), user: p.user, system: p.system, minflt: p.minflt });
  }
  const cpu = machineTicks();
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0);
  const busy = cpu.slice(0, 8).reduce((a, b) => a + b, 0) - idle;
  return { procs, machine: { busy, idle } };
}

/**
 * CPU per record between two snapshots, in µs. A process alive in both counts its difference;
 * one born in between counts all it spent. Processes that ended in between are lost (short-lived
 * connections); the machine's busy time from /proc/stat still includes them.
 */
export function cpuPerRecord(before: CpuSnapshot, after: CpuSnapshot, records: number): { groups: CpuShare; busy: number; idle: number } {
  const us = (ticks: number): number => (ticks * 1e6) / TICKS / records;
  const groups: CpuShare = {};
  for (const [pid, a] of after.procs) {
    const b = before.procs.get(pid);
    const g = (groups[a.group] ??= { user: 0, system: 0, faults: 0 });
    g.user += us(a.user - (b?.user ?? 0));
    g.system += us(a.system - (b?.system ?? 0));
    g.faults += (a.minflt - (b?.minflt ?? 0)) / records;
  }
  return { groups, busy: us(after.machine.busy - before.machine.busy), idle: us(after.machine.idle - before.machine.idle) };
}

/**
 * Resolves once process `pid` has gone quiet (at most one clock tick of CPU in `windowMs`), or
 * after `timeoutMs`: a freshly spawned worker loads and compiles its modules for about a second,
 * which is not work per record.
 */
export async function quiet(pid: number, windowMs = 500, timeoutMs = 30_000): Promise<void> {
  const ticks = (): number => {
    const p = readProc(pid);
    return p === null ? Number.NaN : p.user + p.system;
  };
  const deadline = performance.now() + timeoutMs;
  let last = ticks();
  while (performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, windowMs));
    const now = ticks();
    if (!(now - last > 1)) return;
    last = now;
  }
}

/**
 * A meter of the machine's stolen time (`/proc/stat` steal: CPU the hypervisor gave to other
 * guests while ours were ready to run). Returns a reading function: the stolen share of the
 * machine's time since the meter started, or null where there is no /proc/stat.
 */
export function stealMeter(): () => number | null {
  const read = (): { steal: number; all: number } | null => {
    if (!fs.existsSync('/proc/stat')) return null;
    const cpu = machineTicks().slice(0, 8);
    return { steal: cpu[7] ?? 0, all: cpu.reduce((a, b) => a + b, 0) };
  };
  const start = read();
  return () => {
    const now = read();
    if (start === null || now === null || now.all === start.all) return null;
    return (now.steal - start.steal) / (now.all - start.all);
  };
}

const BACKGROUND = /^postgres: (autovacuum worker|autovacuum launcher|checkpointer|background writer|walwriter)/;

/**
 * A meter of the CPU Postgres's own background work took (autovacuum, checkpoints, WAL and buffer
 * writing): a search timed right after a sync shares the machine with the vacuum of what the sync
 * wrote. Returns a reading function: that CPU as a share of the machine's time since the meter
 * started (a worker that started meanwhile counts all it spent; one that ended is lost), or null
 * where there is no /proc.
 */
export function backgroundMeter(): () => number | null {
  const read = (): { ticks: Map<number, number>; all: number } | null => {
    const snap = cpuSnapshot((_pid, cmd) => (BACKGROUND.test(cmd) ? 'background' : ''));
    if (snap === null) return null;
    const ticks = new Map<number, number>();
    for (const [pid, p] of snap.procs) if (p.group === 'background') ticks.set(pid, p.user + p.system);
    return { ticks, all: snap.machine.busy + snap.machine.idle };
  };
  const start = read();
  return () => {
    const now = read();
    if (start === null || now === null || now.all === start.all) return null;
    let spent = 0;
    for (const [pid, t] of now.ticks) spent += t - (start.ticks.get(pid) ?? 0);
    return spent / (now.all - start.all);
  };
}

/**
 * CPU microseconds per item of `work` over `items` in this process (every thread), the best of
 * `passes` passes. `work` returns a number derived from what it made, summed and checked once, so
 * no step of it is work an engine could leave undone.
 */
export function bestCpuPerItem<T>(items: readonly T[], passes: number, work: (item: T) => number): number {
  let best = Infinity;
  let sink = 0;
  for (let pass = 0; pass < passes; pass++) {
    const before = process.cpuUsage();
    for (const item of items) sink += work(item);
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / items.length);
  }
  if (sink === 0) throw new Error('the measured work derived nothing');
  return best;
}
