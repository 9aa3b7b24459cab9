import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/logger.js';
import { reportRejected } from '../../../src/search/indexer.js';

describe('reporting documents the index refused', () => {
  const capture = () => {
    const lines: { obj: Record<string, unknown>; msg: string }[] = [];
    const logger = { error: (obj: Record<string, unknown>, msg: string) => void lines.push({ obj, msg }) } as unknown as Logger;
    return { lines, logger };
  };
  const where = { connector: 'c1', entity: 'customers', index: 'payments__customers__1' };

  it('says nothing when nothing was refused', () => {
    const { lines, logger } = capture();
    reportRejected(logger, where, []);
    expect(lines).toEqual([]);
  });

  it('logs one error line naming the records, capped at 20 ids, with the total', () => {
    const { lines, logger } = capture();
    const rejected = Array.from({ length: 25 }, (_, i) => ({ recordId: `r${i}`, version: String(i), reason: 'mapper_parsing_exception: bad' }));
    reportRejected(logger, where, rejected);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.obj).toMatchObject({ ...where, count: 25 });
    expect((lines[0]?.obj.rejected as unknown[]).length).toBe(20);
    expect(lines[0]?.msg).toContain('reindexed');
  });
});
