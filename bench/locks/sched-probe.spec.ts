import { cpuWaitOf, parseSched, readMainThreadSched, schedBetween } from './sched-probe';

const STATUS = 'Name:\tnode\nvoluntary_ctxt_switches:\t120\nnonvoluntary_ctxt_switches:\t45\n';

describe('the scheduler probe', () => {
  it("reads run and run-queue time (ns in schedstat, µs out) and the thread's preemptions", () => {
    expect(parseSched('2500000 750000 310\n', STATUS)).toEqual({ runMicros: 2500, waitMicros: 750, preemptions: 45 });
  });

  it('reads nothing where the kernel gives no such figures', () => {
    expect(parseSched('', STATUS)).toBeUndefined();
    expect(parseSched('2500000 750000 310', 'Name:\tnode\nvoluntary_ctxt_switches:\t120\n')).toBeUndefined();
  });

  it('reads this process on Linux, and nothing elsewhere', () => {
    const reading = readMainThreadSched();
    if (process.platform !== 'linux') return expect(reading).toBeUndefined();
    expect(reading!.runMicros).toBeGreaterThan(0); // this test has run on it
    expect(reading!.waitMicros).toBeGreaterThanOrEqual(0);
  });

  it('takes what changed between two readings', () => {
    const start = { runMicros: 1000, waitMicros: 100, preemptions: 3 };
    expect(schedBetween(start, { runMicros: 4000, waitMicros: 1100, preemptions: 10 })).toEqual({
      runMicros: 3000,
      waitMicros: 1000,
      preemptions: 7,
    });
  });

  it("gives the share of the processes' ready time spent waiting, and preemptions per grant, over all of them", () => {
    const processes = [
      { sched: { runMicros: 3000, waitMicros: 1000, preemptions: 30 } },
      { sched: { runMicros: 1000, waitMicros: 0, preemptions: 10 } },
    ];
    expect(cpuWaitOf(20, processes)).toEqual({ share: 0.2, preemptionsPerGrant: 2 });
  });

  it('gives nothing unless every process was read and some grant was made', () => {
    const read = { sched: { runMicros: 3000, waitMicros: 1000, preemptions: 30 } };
    expect(cpuWaitOf(20, [read, {}])).toBeUndefined();
    expect(cpuWaitOf(0, [read])).toBeUndefined();
    expect(cpuWaitOf(20, [])).toBeUndefined();
    // A kernel that keeps no scheduler statistics reads zeros: no measurement, not "never waited".
    const zeros = parseSched('0 0 0\n', 'nonvoluntary_ctxt_switches:\t0\n');
    expect(cpuWaitOf(20, [{ sched: zeros }])).toBeUndefined();
  });
});
