import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cpuPerRecord, cpuSnapshot } from '../../../bench/lib/cpu-share.js';

const linux = fs.existsSync('/proc/self/stat');
if (!linux) console.warn('SKIPPING cpu-share page-fault test: no /proc on this machine');

describe.runIf(linux)('cpuPerRecord', () => {
  it("counts a process's minor page faults between two snapshots", () => {
    const groupOf = (pid: number): string => (pid === process.pid ? 'me' : 'other');
    const before = cpuSnapshot(groupOf);
    // 32 MB never touched: one fault per 4 KB page, or per 2 MB page where huge pages back it.
    const fresh = Buffer.allocUnsafeSlow(32 * 1024 * 1024);
    for (let at = 0; at < fresh.length; at += 4096) fresh[at] = 1;
    const after = cpuSnapshot(groupOf);
    const { groups } = cpuPerRecord(before!, after!, 2);
    expect(groups.me?.faults).toBeGreaterThanOrEqual(16 / 2);
    expect(groups.me?.faults).toBeLessThan(1e6);
  });
});
