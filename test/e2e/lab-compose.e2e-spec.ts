import { ApiError, LabClient } from '@app/contract';
import { testPort } from '../ports';
import { startComposeLikeLab, type ExtraLab } from './support/lab';
import { admin, testStack } from './support/stack';

jest.setTimeout(60_000);

async function refusal(work: Promise<unknown>): Promise<{ status: number; code?: string }> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.errorCode };
    throw error;
  }
  throw new Error('expected a refusal, got an answer');
}

// The lab as docker-compose runs it: no control endpoint, no servers of its own; once with chaos on, once off.
describe('the lab where there is no stack control endpoint (as under docker-compose)', () => {
  const info = testStack();
  const labs: ExtraLab[] = [];
  afterAll(() => Promise.all(labs.map((l) => l.stop())));

  it('offers only what needs no control endpoint, says so, and refuses the rest before attempting it', async () => {
    const extra = await startComposeLikeLab(info, testPort(28191), true);
    labs.push(extra);
    const lab = new LabClient(extra.url);
    const config = await lab.config();
    expect(config).toMatchObject({ chaos: true, control: false });
    expect(config.notes.join(' ')).toContain('docker-compose');
    expect(config.faults.filter((f) => f.available).map((f) => f.name)).toEqual([
      'pause-holder',
      'freeze-replica',
      'crash-replica',
    ]);
    expect(config.faults.find((f) => f.name === 'kill-replica')?.reason).toContain('control endpoint');
    const steps = new Map(config.steps.map((s) => [s.name, s]));
    expect(steps.get('redlock')?.available).toBe(false);
    expect(steps.get('failover')).toMatchObject({
      available: false,
      reason: expect.stringContaining('its own') as string,
    });
    expect(steps.get('set-nx-px')?.available).toBe(true);
    const token = { adminToken: info.adminToken };
    expect(await refusal(lab.fault('kill-replica', info.adminToken))).toEqual({ status: 409, code: 'LAB.UNAVAILABLE' });
    expect(await refusal(lab.runStep('failover', () => undefined, token))).toEqual({
      status: 409,
      code: 'LAB.UNAVAILABLE',
    });
    expect(await lab.state()).toEqual({ running: null, last: null });
  });

  it('with chaos off, says so and attempts no fault and no step that needs chaos', async () => {
    const extra = await startComposeLikeLab(info, testPort(28192), false);
    labs.push(extra);
    const lab = new LabClient(extra.url);
    const config = await lab.config();
    expect(config.chaos).toBe(false);
    expect(config.notes.join(' ')).toContain('CHAOS_ENABLED=false');
    expect(config.faults.filter((f) => f.available)).toEqual([]);
    expect(config.steps.find((s) => s.name === 'set-nx-px')).toMatchObject({ available: false });
    expect(config.steps.find((s) => s.name === 'none')).toMatchObject({ available: true });
    expect(await refusal(lab.fault('pause-holder', info.adminToken))).toEqual({ status: 403, code: 'CHAOS.DISABLED' });
    expect(await refusal(lab.runStep('set-nx-px', () => undefined, { adminToken: info.adminToken }))).toEqual({
      status: 403,
      code: 'CHAOS.DISABLED',
    });
    // The token is still checked first: a wrong one learns nothing more.
    const wrong = await fetch(`${extra.url}/api/faults/pause-holder`, {
      method: 'POST',
      headers: admin({ ...info, adminToken: 'nope' }),
    });
    expect(wrong.status).toBe(401);
    expect(await lab.state()).toEqual({ running: null, last: null });
  });
});
