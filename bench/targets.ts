import { scenarioFor } from './scenarios';
import type { BenchReport, StrategyResult } from './types';

/** One performance target of issue 5 checked against a run; `met` undefined when not measurable. */
export interface TargetCheck {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean | undefined;
}

export const utilisationFloor = 0.8;
export const segmentedSpeedup = 3;

/** Strategies that serialise every grab through one lock on the coupon. */
export function isSingleLock(strategy: string): boolean {
  const scenario = scenarioFor(strategy);
  return scenario.promisesExclusion && scenario.expectedCorrect && scenario.segments === 'one';
}

export function checkTargets(report: BenchReport): TargetCheck[] {
  const by = new Map<string, StrategyResult>(report.results.map((r) => [r.strategy, r]));
  const checks: TargetCheck[] = [];
  const segmented = by.get('segmented');
  const ownerChecked = by.get('owner-checked');
  const target = `segmented (${report.settings.segments} segments) ≥ ${segmentedSpeedup}× owner-checked grabs/s at workMs ${report.settings.workMs}`;
  if (segmented && ownerChecked && ownerChecked.grabsPerSec > 0) {
    const ratio = segmented.grabsPerSec / ownerChecked.grabsPerSec;
    checks.push({
      target,
      measured: `${ratio.toFixed(2)}× (${segmented.grabsPerSec.toFixed(0)} vs ${ownerChecked.grabsPerSec.toFixed(0)})`,
      met: ratio >= segmentedSpeedup,
    });
  } else {
    checks.push({ target, measured: 'not run', met: undefined });
  }
  for (const r of report.results.filter((x) => isSingleLock(x.strategy))) {
    checks.push({
      target: `${r.strategy}: lock utilisation ≥ ${utilisationFloor}`,
      measured:
        r.utilisation.busyShare.toFixed(2) +
        (r.utilisation.lockHeldShare === undefined
          ? ''
          : ` (lock held ${r.utilisation.lockHeldShare.toFixed(2)} of the window)`),
      met: r.utilisation.busyShare >= utilisationFloor,
    });
  }
  return checks;
}
