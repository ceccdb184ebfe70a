import { currentFlowId, inSomeFlow, runInFlow } from './flow-context';

describe('flow context', () => {
  it('keeps one flow id across awaits inside a flow', async () => {
    const ids = await runInFlow(async () => {
      const first = currentFlowId();
      await new Promise((r) => setTimeout(r, 1));
      return [first, currentFlowId()];
    });
    expect(ids[0]).toBeDefined();
    expect(ids[1]).toBe(ids[0]);
  });

  it('gives concurrent flows different ids, and runInFlow always starts a new one', async () => {
    const [a, b] = await Promise.all([
      runInFlow(() => Promise.resolve(currentFlowId())),
      runInFlow(() => Promise.resolve(currentFlowId())),
    ]);
    expect(a).not.toBe(b);
    runInFlow(() => {
      const outer = currentFlowId();
      expect(runInFlow(() => currentFlowId())).not.toBe(outer);
      expect(inSomeFlow(() => currentFlowId())).toBe(outer);
    });
  });

  it('inSomeFlow opens a flow when there is none', () => {
    expect(currentFlowId()).toBeUndefined();
    expect(inSomeFlow(() => currentFlowId())).toEqual(expect.any(String));
  });
});
