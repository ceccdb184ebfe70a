import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { sampleMachineCpu } from './machine-cpu-probe';

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
});
