import { exitCode, runStep } from './runner';
import type { Step, StepContext } from './step';

const ctx = { strategies: new Set(['none', 'owner-checked']) } as unknown as StepContext;
const step = (over: Partial<Step>): Step => ({
  name: 's',
  title: 'T',
  explain: 'E',
  expected: 'X',
  requires: [],
  run: () =>
    Promise.resolve({
      observed: { a: 1 },
      checks: [{ what: 'a', expected: '1', observed: 1, pass: true }],
      summary: 'ok',
    }),
  ...over,
});

describe('runStep', () => {
  it('passes a step whose checks all pass', async () => {
    const result = await runStep(step({}), ctx);
    expect(result).toMatchObject({ status: 'passed', verdict: 'as expected', observed: { a: 1 }, summary: 'ok' });
  });

  it('fails a step with a failing check, naming it in the verdict', async () => {
    const result = await runStep(
      step({
        run: () =>
          Promise.resolve({
            observed: {},
            summary: '',
            checks: [
              { what: 'a', expected: '1', observed: 1, pass: true },
              { what: 'holders', expected: '≥ 2', observed: 1, pass: false },
            ],
          }),
      }),
      ctx,
    );
    expect(result.status).toBe('failed');
    expect(result.verdict).toBe('NOT as expected: holders');
  });

  it('never passes a step that checked nothing', async () => {
    const result = await runStep(step({ run: () => Promise.resolve({ observed: {}, checks: [], summary: '' }) }), ctx);
    expect(result.status).toBe('failed');
  });

  it('skips, without running, a step that needs a strategy the API lacks', async () => {
    let ran = false;
    const result = await runStep(
      step({
        requires: ['none', 'redlock'],
        run: () => {
          ran = true;
          return Promise.resolve({ observed: {}, checks: [], summary: '' });
        },
      }),
      ctx,
    );
    expect(ran).toBe(false);
    expect(result).toMatchObject({ status: 'skipped', reason: 'the API does not offer redlock' });
  });

  it('turns a thrown error into an error result', async () => {
    const result = await runStep(
      step({
        run: () => Promise.reject(new TypeError('boom')),
      }),
      ctx,
    );
    expect(result).toMatchObject({ status: 'error', reason: 'TypeError: boom' });
  });

  it('exits non-zero only when a step failed or errored', async () => {
    const pass = await runStep(step({}), ctx);
    const skip = await runStep(step({ requires: ['redlock'] }), ctx);
    const error = await runStep(
      step({
        run: () => Promise.reject(new Error('x')),
      }),
      ctx,
    );
    expect(exitCode([pass, skip])).toBe(0);
    expect(exitCode([pass, error])).toBe(1);
  });
});
