import { describe, expect, it } from 'vitest';
import { cachedRender } from '../../../src/api/routes/metrics.js';

describe('the /metrics render cache', () => {
  it('renders once for a burst of concurrent scrapes', async () => {
    let renders = 0;
    let release: (s: string) => void = () => undefined;
    const render = cachedRender(() => new Promise<string>((r) => { renders++; release = r; }), 1000, () => 0);
    const burst = Array.from({ length: 20 }, () => render());
    release('body 1');
    expect(await Promise.all(burst)).toEqual(Array(20).fill('body 1'));
    expect(renders).toBe(1);
  });

  it('serves the last body while it is fresh, and renders again once it is stale', async () => {
    let t = 0;
    let n = 0;
    const render = cachedRender(async () => `body ${++n}`, 1000, () => t);
    expect(await render()).toBe('body 1');
    t = 999;
    expect(await render()).toBe('body 1');
    t = 1000;
    expect(await render()).toBe('body 2');
  });

  it('does not cache a failed render', async () => {
    let fail = true;
    const render = cachedRender(async () => { if (fail) throw new Error('db down'); return 'ok'; }, 1000, () => 0);
    await expect(render()).rejects.toThrow('db down');
    fail = false;
    expect(await render()).toBe('ok');
  });
});
