import { recovery, type HealthSample } from './health-watch';

const at = (atMs: number, a: number, b: number): HealthSample => ({ atMs, statuses: { 'api-1': a, 'api-2': b } });

describe('recovery', () => {
  it('measures from the fault to the first sample after which every replica stays 200', () => {
    const samples = [
      at(0, 200, 200),
      at(100, 503, 503),
      at(200, 200, 503),
      at(300, 200, 200),
      at(400, 503, 200),
      at(500, 200, 200),
      at(600, 200, 200),
    ];
    expect(recovery(samples, 50)).toEqual({ sawUnhealthy: true, saw503: true, recoveryMs: 450 });
  });

  it('ignores samples before the fault and tells a dead replica (0) from a 503', () => {
    const samples = [at(0, 503, 200), at(100, 0, 200), at(200, 200, 200)];
    expect(recovery(samples, 50)).toEqual({ sawUnhealthy: true, saw503: false, recoveryMs: 150 });
  });

  it('reports no recovery when the last sample is still bad', () => {
    expect(recovery([at(100, 503, 200)], 0).recoveryMs).toBeUndefined();
  });

  it('counts 0 ms when health never went bad after the fault began', () => {
    expect(recovery([at(100, 503, 200), at(200, 200, 200)], 150)).toMatchObject({ recoveryMs: 0, sawUnhealthy: false });
  });
});
