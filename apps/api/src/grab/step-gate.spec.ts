import { StepGate, type GatePort } from './step-gate';

/** A port whose "go"s are given by the test, one per awaitGo, in order (true: stepped, false: timed out). */
function port(goes: boolean[]): GatePort & { marks: string[]; waits: number[]; closed: boolean } {
  const fake = {
    marks: [] as string[],
    waits: [] as number[],
    closed: false,
    announce: (mark: string) => {
      fake.marks.push(mark);
      return Promise.resolve();
    },
    awaitGo: (ms: number) => {
      fake.waits.push(ms);
      return Promise.resolve(goes.shift() ?? false);
    },
    close: () => {
      fake.closed = true;
    },
  };
  return fake;
}

describe('StepGate', () => {
  it('announces each step, numbered, and waits for its go before the step runs', async () => {
    const p = port([true, true, true]);
    const gate = new StepGate(p, 30_000, () => 0);
    await gate.checkpoint('acquire');
    await gate.checkpoint('read');
    await gate.checkpoint('write');
    expect(p.marks).toEqual(['1:acquire', '2:read', '3:write']);
    expect(p.waits).toEqual([30_000, 30_000, 30_000]);
    expect(gate.letGo).toBe(false);
  });

  it('lets a grab nobody steps go: every later step passes without waiting', async () => {
    const p = port([true, false]);
    const gate = new StepGate(p, 500, () => 0);
    await gate.checkpoint('acquire');
    await gate.checkpoint('read');
    await gate.checkpoint('write');
    await gate.checkpoint('release');
    expect(gate.letGo).toBe(true);
    expect(p.marks).toEqual(['1:acquire', '2:read', '2:released']);
    expect(p.waits).toEqual([500, 500]);
  });

  it('counts the time since the last step, lock waits included: the whole hold is bounded', async () => {
    let clock = 1000;
    const p = port([true, true]);
    const gate = new StepGate(p, 500, () => clock);
    await gate.checkpoint('acquire'); // stepped at once: the hold starts again from here
    clock += 200; // the step ran (waited for the lock) 200 ms
    await gate.checkpoint('read');
    clock += 600; // the next step outlasted the hold before reaching the next point
    await gate.checkpoint('write');
    expect(p.waits).toEqual([500, 300]);
    expect(p.marks).toEqual(['1:acquire', '2:read', '3:write', '3:released']);
    expect(gate.letGo).toBe(true);
  });

  it('does not run the step before its go arrives', async () => {
    let go!: (stepped: boolean) => void;
    const p = { ...port([]), awaitGo: () => new Promise<boolean>((resolve) => (go = resolve)) };
    const gate = new StepGate(p, 1000);
    let ran = false;
    const step = gate.checkpoint('read').then(() => (ran = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(ran).toBe(false);
    go(true);
    await step;
    expect(ran).toBe(true);
  });

  it('closes its connection', () => {
    const p = port([]);
    new StepGate(p, 1000).close();
    expect(p.closed).toBe(true);
  });
});
