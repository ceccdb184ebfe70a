import { ScenarioSlot } from './scenario-slot';

describe('ScenarioSlot', () => {
  const at = new Date('2026-11-23T10:00:00.000Z');

  it('refuses a second scenario with LAB.BUSY naming the first, and frees the slot when it finishes', () => {
    const slot = new ScenarioSlot(() => at);
    const claim = slot.claim('load', 'none');
    expect(() => slot.claim('step', 'set-nx-px')).toThrow(
      expect.objectContaining({
        code: 'LAB.BUSY',
        running: { kind: 'load', name: 'none', startedAt: at.toISOString() },
      }) as Error,
    );
    expect(slot.state().running).toEqual(claim.info);
    claim.finish({ couponIds: [7], sent: 60 });
    expect(slot.state()).toEqual({
      running: null,
      last: { ...claim.info, outcome: 'done', endedAt: at.toISOString(), couponIds: [7], sent: 60 },
    });
    expect(() => slot.claim('step', 'set-nx-px')).not.toThrow();
  });

  it('records a cancelled run as cancelled, and aborts its signal with the reason', () => {
    const slot = new ScenarioSlot(() => at);
    const claim = slot.claim('step', 'watchdog-pause');
    expect(slot.cancelRunning()).toBe(true);
    expect(claim.signal.aborted).toBe(true);
    expect(() => claim.signal.throwIfAborted()).toThrow(expect.objectContaining({ code: 'LAB.CANCELLED' }) as Error);
    claim.finish({ couponIds: [] });
    expect(slot.state().last?.outcome).toBe('cancelled');
  });

  it('records an error, and ignores a second finish', () => {
    const slot = new ScenarioSlot<string>(() => at);
    const claim = slot.claim('load', 'watchdog');
    claim.attach('the load');
    expect(slot.running()?.extra).toBe('the load');
    claim.finish({ couponIds: [], error: 'the API did not answer' });
    claim.finish({ couponIds: [1] });
    expect(slot.state().last).toMatchObject({ outcome: 'error', message: 'the API did not answer', couponIds: [] });
  });
});
