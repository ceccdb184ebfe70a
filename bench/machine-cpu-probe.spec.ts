import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { sampleMachineCpu, whileSampling } from './machine-cpu-probe';

const linux = process.platform === 'linux' ? describe : describe.skip;

linux('sampleMachineCpu', () => {
  it('counts this process keeping a core busy, and no more than the cores could give', () => {
    const sampler = sampleMachineCpu();
    const ours = process.cpuUsage();
    const started = Date.now();
    while (Date.now() < started + 300); // a core busy, on this thread
    const oursMs = process.cpuUsage(ours);
    const elapsedMs = Date.now() - started;
    sampler.stop();
    const { samples } = sampler;
    const seenMs = samples[samples.length - 1].busyMs - samples[0].busyMs;
    // The machine's count includes ours; both sides count in 10 ms ticks.
    expect(seenMs).toBeGreaterThanOrEqual((oursMs.user + oursMs.system) / 1000 - 30);
    expect(seenMs).toBeLessThanOrEqual(elapsedMs * cpus().length + 30);
  });

  it('reads on its timer until stopped, then once more, and only once', async () => {
    const sampler = sampleMachineCpu(20);
    await sleep(100); // the 20 ms timer comes due before this one
    sampler.stop();
    const count = sampler.samples.length;
    expect(count).toBeGreaterThanOrEqual(3);
    sampler.stop();
    await sleep(50);
    expect(sampler.samples).toHaveLength(count);
    const times = sampler.samples.map((s) => s.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('samples around a piece of work, from before its start to after its end, then stops', async () => {
    let span = { start: 0, end: 0 };
    const { result, samples } = await whileSampling(async () => {
      const start = Date.now();
      await sleep(60);
      span = { start, end: Date.now() };
      return 'done';
    });
    expect(result).toBe('done');
    expect(samples[0].at).toBeLessThanOrEqual(span.start);
    expect(samples[samples.length - 1].at).toBeGreaterThanOrEqual(span.end);
    const count = samples.length;
    await sleep(50);
    expect(samples).toHaveLength(count);
  });
});
