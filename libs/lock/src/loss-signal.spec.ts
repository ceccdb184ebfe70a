import { LossSignal } from './loss-signal';

describe('LossSignal', () => {
  it('hands out one signal, aborted when the loss is reported after it was asked for', () => {
    const loss = new LossSignal();
    const signal = loss.signal;
    expect(signal.aborted).toBe(false);
    const reason = new Error('lost');
    loss.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    expect(loss.signal).toBe(signal);
  });

  it('keeps a loss reported before anyone asked: the signal comes out aborted with its reason', () => {
    const loss = new LossSignal();
    const reason = new Error('lost');
    loss.abort(reason);
    expect(loss.signal.aborted).toBe(true);
    expect(loss.signal.reason).toBe(reason);
  });

  it('keeps the first reason when the loss is reported twice', () => {
    const loss = new LossSignal();
    const first = new Error('first');
    loss.abort(first);
    loss.abort(new Error('second'));
    expect(loss.signal.reason).toBe(first);
  });

  it('stays unaborted when no loss is reported', () => {
    expect(new LossSignal().signal.aborted).toBe(false);
  });

  it('runs onFirstLook once, when the signal is first asked for', () => {
    let looks = 0;
    const loss = new LossSignal(() => looks++);
    expect(looks).toBe(0);
    void loss.signal;
    void loss.signal;
    expect(looks).toBe(1);
  });

  it('skips onFirstLook when the loss is known already', () => {
    let looks = 0;
    const loss = new LossSignal(() => looks++);
    loss.abort(new Error('gone'));
    expect(loss.signal.aborted).toBe(true);
    expect(looks).toBe(0);
  });
});
