import { ApiClient, ApiError, type Audit, type LabClient, type LoadEvent } from '@app/contract';
import { labClient, labUrl, runLoad } from './support/lab';
import { admin, createCoupon, http, testStack, type StackInfo } from './support/stack';

// Jest's testTimeout is global; these runs take seconds.
jest.setTimeout(90_000);

const progressOf = (events: LoadEvent[]) => events.filter((e) => e.type === 'progress');
const doneOf = (events: LoadEvent[]) => events.find((e) => e.type === 'done');

async function refusal(
  work: Promise<unknown>,
): Promise<{ status: number; code?: string; body: Record<string, unknown> }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ApiError)
      return { status: error.status, code: error.errorCode, body: JSON.parse(error.body) as Record<string, unknown> };
    throw error;
  }
  throw new Error('expected a refusal, got an answer');
}

async function waitIdle(lab: LabClient, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await lab.state();
    if (!state.running) return state;
    if (Date.now() > deadline) throw new Error(`the lab still runs ${JSON.stringify(state.running)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the lab server through nginx', () => {
  let info: StackInfo;
  let lab: LabClient;
  let base: string;
  let api: ApiClient;

  beforeAll(() => {
    info = testStack();
    lab = labClient(info);
    base = labUrl(info).replace(/\/$/, '');
    api = new ApiClient({ baseUrl: info.nginxUrl, adminToken: info.adminToken });
  });

  it('serves the page at /lab/: its own small files, with nothing from elsewhere', async () => {
    const bare = await fetch(`${info.nginxUrl}/lab`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/lab/');
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]).filter((a) => a !== 'data:,');
    expect(assets.sort()).toEqual(['app.css', 'app.js']);
    const sizes = await Promise.all(
      assets.map(async (a) => {
        const res = await fetch(`${base}/${a}`);
        expect(res.status).toBe(200);
        return (await res.arrayBuffer()).byteLength;
      }),
    );
    expect(html.length + sizes.reduce((a, b) => a + b, 0)).toBeLessThan(300 * 1024);
  });

  it('says what it offers: every strategy step, every fault, the replicas', async () => {
    const config = await lab.config();
    expect(config).toMatchObject({ chaos: true, control: true, replicas: info.replicas.map((r) => r.id), notes: [] });
    expect(config.faults.map((f) => [f.name, f.available])).toEqual(
      ['pause-holder', 'freeze-replica', 'crash-replica', 'kill-replica', 'restart-redis', 'restart-postgres'].map(
        (n) => [n, true],
      ),
    );
    expect(config.steps.find((s) => s.name === 'set-nx-px')).toMatchObject({
      available: true,
      uses: ['chaos', 'fault'],
    });
    expect(config.steps.find((s) => s.name === 'none')).toMatchObject({ available: true, uses: [] });
  });

  it('refuses hostile input with a clear 4xx JSON error, and changes nothing', async () => {
    const before = await lab.state();
    const probe = await createCoupon(info, 1);
    const good = { strategy: 'none', stock: 5, buyers: 5, workMs: 0 };
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      http<{ code: string; message: string }>('POST', `${base}${path}`, body, headers);
    const cases: Array<[string, Promise<{ status: number; body: { code: string; message: string } }>, number, string]> =
      [
        ['malformed JSON', post('/api/runs', '{"strategy":'), 400, 'REQUEST.INVALID'],
        ['an array', post('/api/runs', [good]), 400, 'REQUEST.INVALID'],
        ['an unknown strategy', post('/api/runs', { ...good, strategy: 'drop table' }), 400, 'REQUEST.INVALID'],
        ['a negative stock', post('/api/runs', { ...good, stock: -1 }), 400, 'REQUEST.INVALID'],
        ['a million buyers', post('/api/runs', { ...good, buyers: 1e6 }), 400, 'REQUEST.INVALID'],
        ['work as text', post('/api/runs', { ...good, workMs: '20' }), 400, 'REQUEST.INVALID'],
        ['an extra field', post('/api/runs', { ...good, crash: 1 }), 400, 'REQUEST.INVALID'],
        ['a room admitting none', post('/api/runs', { ...good, room: { admitPerSec: 0 } }), 400, 'REQUEST.INVALID'],
        ['a huge body', post('/api/runs', { ...good, pad: 'x'.repeat(8000) }), 413, 'REQUEST.TOO_LARGE'],
        ['an unknown step', post('/api/steps/..%2F..%2Fetc', {}), 404, 'ROUTE.NOT_FOUND'],
        ['a step with settings', post('/api/steps/none', { stock: 1 }), 400, 'REQUEST.INVALID'],
        ['an unknown fault', post('/api/faults/rm-rf', {}, admin(info)), 404, 'ROUTE.NOT_FOUND'],
        [
          'an unknown replica',
          post('/api/faults/kill-replica', { replica: 'api-9' }, admin(info)),
          400,
          'REQUEST.INVALID',
        ],
        ['a fault without the token', post('/api/faults/kill-replica', {}), 401, 'AUTH.UNAUTHORIZED'],
        [
          'a fault with a wrong token',
          post('/api/faults/kill-replica', {}, { authorization: 'Bearer x' }),
          401,
          'AUTH.UNAUTHORIZED',
        ],
        ['a fault step without the token', post('/api/steps/set-nx-px', {}), 401, 'AUTH.UNAUTHORIZED'],
        ['a fault with no load running', post('/api/faults/kill-replica', {}, admin(info)), 409, 'LAB.NO_LOAD'],
        ['an unknown route', http('GET', `${base}/api/nope`), 404, 'ROUTE.NOT_FOUND'],
      ];
    for (const [what, answer, status, code] of cases) {
      const res = await answer;
      expect({ what, status: res.status, code: res.body.code }).toEqual({ what, status, code });
      expect(res.body.message.length).toBeGreaterThan(0);
    }
    // No run started, no coupon created, no replica touched.
    expect(await lab.state()).toEqual(before);
    expect((await createCoupon(info, 1)).id).toBe(probe.id + 1);
    expect((await api.strategies()).length).toBeGreaterThan(0);
  });

  it('streams a load as it runs and ends with the audit as the verdict', async () => {
    const events = await runLoad(lab, { strategy: 'none', stock: 5, buyers: 15, workMs: 20 });
    expect(events[0]).toMatchObject({ type: 'started', replicas: info.replicas.map((r) => r.id) });
    const done = doneOf(events);
    if (done?.type !== 'done') throw new Error(`no verdict: ${JSON.stringify(events.at(-1))}`);
    expect(done.audit).toEqual(await api.audit(done.couponId));
    const grants = progressOf(events).flatMap((e) => (e.type === 'progress' ? e.grants : []));
    expect(grants).toHaveLength(done.audit.grants);
    expect(new Set(grants.map((g) => g.userId)).size).toBe(grants.length);
    const answered = Object.values(done.answers).flatMap((row) => Object.values(row));
    expect(answered.reduce((a, b) => a + b, 0)).toBe(15);
    expect(await lab.state()).toMatchObject({ running: null, last: { kind: 'load', outcome: 'done', sent: 15 } });
  });

  it('runs one scenario at a time: a second one gets 409 LAB.BUSY naming the first', async () => {
    const first: LoadEvent[] = [];
    let started!: () => void;
    const seen = new Promise<void>((resolve) => (started = resolve));
    const running = lab.runLoad({ strategy: 'watchdog', stock: 10, buyers: 20, workMs: 100 }, (e) => {
      first.push(e);
      if (e.type === 'started') started();
    });
    await seen;
    const second = await refusal(lab.runLoad({ strategy: 'none', stock: 1, buyers: 1, workMs: 0 }, () => undefined));
    expect(second).toMatchObject({
      status: 409,
      code: 'LAB.BUSY',
      body: { running: { kind: 'load', name: 'watchdog' } },
    });
    expect(await refusal(lab.runStep('none', () => undefined))).toMatchObject({ status: 409, code: 'LAB.BUSY' });
    await running;
    expect(doneOf(first)).toMatchObject({ audit: { grants: 10, oversold: 0, maxConcurrentHolders: 1 } });
  });

  // One buyer holding the lock a while: the paused holder comes after it, and no buyer of the load
  // is still queued when the second one is sent, so what it meets is the paused holder's lock alone.
  async function pausedLoad(strategy: string): Promise<{ told: string; audit: Audit }> {
    const events: LoadEvent[] = [];
    let started!: () => void;
    const seen = new Promise<void>((resolve) => (started = resolve));
    const run = lab.runLoad({ strategy, stock: 10, buyers: 1, workMs: 1500 }, (e) => {
      events.push(e);
      if (e.type === 'started') started();
    });
    await seen;
    const answer = await lab.fault('pause-holder', info.adminToken, { replica: info.replicas[0].id });
    expect(answer.detail).toContain('pauses');
    await run;
    const done = doneOf(events);
    if (done?.type !== 'done') throw new Error(`no verdict: ${JSON.stringify(events.at(-1))}`);
    const told = events.flatMap((e) => (e.type === 'fault' ? [e.detail] : [])).join('\n');
    expect(told).toMatch(/the stalled holder has the lock \(\d+ ms of lease left\)/);
    expect(told).toMatch(/the second buyer answered 200/);
    expect(done.audit).toEqual(await api.audit(done.couponId));
    return { told, audit: done.audit };
  }

  it('a paused holder outlives a plain lease: its lock ends mid-stall and the second buyer walks in', async () => {
    const { told, audit } = await pausedLoad('set-nx-px');
    expect(told).toMatch(/its lock ended \d+ ms later, while it still stalls: a second buyer/);
    expect(audit.grants).toBe(3);
    expect(audit.maxConcurrentHolders).toBe(2);
  });

  it('the same pause under the watchdog: the lease is renewed, the second buyer waits its turn', async () => {
    const { told, audit } = await pausedLoad('watchdog');
    expect(told).toMatch(/its lock ended \d+ ms later, as it let go: a second buyer/);
    expect(audit.grants).toBe(3);
    expect(audit.maxConcurrentHolders).toBe(1);
  });

  it('a client that goes away mid-load leaves nothing running', async () => {
    const abort = new AbortController();
    const events: LoadEvent[] = [];
    const run = lab
      .runLoad(
        { strategy: 'set-nx-px', stock: 400, buyers: 400, workMs: 20 },
        (e) => {
          events.push(e);
          if (e.type === 'progress') abort.abort();
        },
        abort.signal,
      )
      .catch((error: Error) => error);
    expect(await run).toMatchObject({ name: 'AbortError' });
    const state = await waitIdle(lab);
    expect(state.last).toMatchObject({ kind: 'load', outcome: 'cancelled' });
    expect(state.last!.sent).toBeLessThan(400);
    const audit = await api.audit(state.last!.couponIds[0]);
    expect(audit.grants).toBeLessThanOrEqual(state.last!.sent!);
    // The slot is free at once for the next run.
    expect(doneOf(await runLoad(lab, { strategy: 'none', stock: 1, buyers: 1, workMs: 0 }))).toBeDefined();
  });

  it('a client that goes away mid-step stops the step, which still cleans up after itself', async () => {
    const abort = new AbortController();
    const run = lab
      .runStep('watchdog-pause', (e) => (e.type === 'say' ? abort.abort() : undefined), {
        adminToken: info.adminToken,
        signal: abort.signal,
      })
      .catch((error: Error) => error);
    expect(await run).toMatchObject({ name: 'AbortError' });
    const state = await waitIdle(lab);
    expect(state.last).toMatchObject({ kind: 'step', name: 'watchdog-pause', outcome: 'cancelled' });
    expect(state.last!.couponIds.length).toBeGreaterThan(0);
    for (const id of state.last!.couponIds) expect((await api.audit(id)).grants).toBe(0);
  });
});
