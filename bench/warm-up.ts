import type { ApiClient } from '@app/contract';
import { httpCeiling } from './ceilings/http-ceiling';
import { runRound } from './load-round';
import type { ProgressLine } from './progress';
import { segmentsFor } from './scenarios';
import type { BenchTarget } from './target';
import type { BenchSettings } from './types';

/**
 * A freshly started stack runs several times slower until V8 has compiled its hot paths: without
 * this, whichever strategy (or ceiling) goes first is measured cold. So before anything is
 * measured, every path runs: GET /strategies, then each strategy's grabs until its coupon sold out
 * and past it, at workMs 0.
 */
export async function warmUpStack(
  api: ApiClient,
  target: BenchTarget,
  settings: BenchSettings,
  strategies: readonly string[],
  runId: string,
  progress: ProgressLine,
): Promise<void> {
  const amount = Math.max(200, settings.warmupRequests * 4);
  await httpCeiling(target.nginxUrl, amount * 5, settings.connections);
  for (const [index, strategy] of strategies.entries()) {
    progress.update(`warming the stack up: ${strategy}`);
    const coupon = await api.createCoupon({
      name: `bench warm-up ${strategy} ${runId}`,
      stock: Math.floor(amount / 2),
      segments: segmentsFor(strategy, settings.segments),
    });
    await runRound({
      url: `${target.nginxUrl}/coupons/${coupon.id}/grab?${new URLSearchParams({ strategy, workMs: '0' }).toString()}`,
      amount,
      connections: settings.connections,
      userPrefix: `${runId}-warm-${index}`,
    });
  }
  progress.done(`warmed the stack up: ${amount * 5} GET /strategies, ${amount} grabs per strategy`);
}
