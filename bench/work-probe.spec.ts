import type { ApiClient, GrabAnswer } from '@app/contract';
import { probeWork } from './work-probe';

/** An API whose grabs answer `statuses[i]` after `tookMs[i]`. */
function fakeApi(statuses: number[], tookMs: number[]) {
  const created: { stock: number; segments?: number }[] = [];
  const grabs: { userId: string; options: unknown }[] = [];
  const api = {
    createCoupon: (spec: { stock: number; segments?: number }) => {
      created.push(spec);
      return Promise.resolve({ id: 41 });
    },
    grab: (_couponId: number, userId: string, options: unknown): Promise<GrabAnswer> => {
      const i = grabs.length;
      grabs.push({ userId, options });
      return Promise.resolve({ userId, status: statuses[i], sentAt: 1_000, answeredAt: 1_000 + tookMs[i] });
    },
  } as unknown as ApiClient;
  return { api, created, grabs };
}

describe('probeWork', () => {
  it('passes when every granted grab took at least workMs, and reports the fastest', async () => {
    const { api, created, grabs } = fakeApi([200, 200, 409], [320, 305, 2]);
    expect(await probeWork(api, 'segmented', 300, 8, 'r1')).toEqual({
      strategy: 'segmented',
      workMs: 300,
      granted: 2,
      minGrantedMs: 305,
      ok: true,
    });
    expect(created).toEqual([expect.objectContaining({ stock: 3, segments: 8 })]);
    expect(grabs.map((g) => g.options)).toEqual(Array(3).fill({ strategy: 'segmented', workMs: 300 }));
    expect(new Set(grabs.map((g) => g.userId)).size).toBe(3);
  });

  it('fails when a granted grab came back sooner than workMs', async () => {
    const { api } = fakeApi([200, 200, 200], [300, 299, 400]);
    expect(await probeWork(api, 'x', 300, 8, 'r1')).toMatchObject({ granted: 3, minGrantedMs: 299, ok: false });
  });

  it('fails when nothing was granted', async () => {
    const { api } = fakeApi([429, 503, 0], [900, 900, 900]);
    expect(await probeWork(api, 'x', 300, 8, 'r1')).toMatchObject({ granted: 0, minGrantedMs: 0, ok: false });
    // Even with no work asked for: a probe that granted nothing proved nothing.
    expect(await probeWork(fakeApi([429, 429, 429], [1, 1, 1]).api, 'x', 0, 8, 'r1')).toMatchObject({ ok: false });
  });
});
