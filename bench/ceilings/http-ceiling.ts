import autocannon from 'autocannon';
import { sampleMachineCpu } from '../machine-cpu-probe';
import { machineCpuOver, type MachineCpu } from '../metrics/machine-cpu';

/** The http ceiling's rate, and what it cost the machine per request. */
export interface HttpReading {
  readonly perSec: number;
  readonly machineCpu?: MachineCpu;
}

/**
 * GET /strategies through nginx with the load's own client and connections: the HTTP stack's rate
 * with no database and no Redis behind it. Timed from the start to the last answer (autocannon's
 * own duration ends on its sampling tick).
 */
export async function httpCeiling(nginxUrl: string, amount: number, connections: number): Promise<HttpReading> {
  let answered = 0;
  let lastAnswerAt = 0;
  let lastAnswerWall = 0;
  const cpu = sampleMachineCpu();
  const startedWall = Date.now();
  const startedAt = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      { url: `${nginxUrl}/strategies`, amount, connections: Math.min(connections, amount), timeout: 30, sampleInt: 50 },
      (error, done) => (error ? reject(error as Error) : resolve(done)),
    );
    instance.on('response', () => {
      answered += 1;
      lastAnswerAt = performance.now();
      lastAnswerWall = Date.now();
    });
  }).finally(() => cpu.stop());
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`GET /strategies failed under load: ${result.non2xx} non-2xx, ${result.errors} errors`);
  }
  const elapsedMs = lastAnswerAt - startedAt;
  return {
    perSec: elapsedMs > 0 ? (answered * 1000) / elapsedMs : 0,
    machineCpu: machineCpuOver(cpu.samples, startedWall, lastAnswerWall - startedWall, answered),
  };
}
