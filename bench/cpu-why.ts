import { fixed } from './report/format';
import type { TargetCheck } from './target-check';
import type { StrategyResult } from './types';

/**
 * Why `a` ran slower than `b`, in the machine's CPU. A rate is the cores kept busy over the CPU
 * each grant takes, so a's rate over b's is exactly the product of two factors: b's CPU per grant
 * over a's (the work each grant does), and the cores a kept busy over b's (what it left idle,
 * waiting). Undefined when either round has no CPU reading.
 */
export function cpuWhy(a: StrategyResult, b: StrategyResult): string | undefined {
  const ca = a.machineCpu;
  const cb = b.machineCpu;
  if (!ca || !cb || ca.microsPerGrant <= 0 || cb.coresBusy <= 0) return undefined;
  const work = cb.microsPerGrant / ca.microsPerGrant;
  const busy = ca.coresBusy / cb.coresBusy;
  return (
    `each grant took ${fixed(ca.microsPerGrant)} µs of the machine's CPU, ${b.strategy}'s ${fixed(cb.microsPerGrant)}: ` +
    `with the cores as busy as ${b.strategy} kept them (${fixed(cb.coresBusy, 2)}) that allows ${fixed(work, 2)}× at best; ` +
    `${a.strategy} kept them ${fixed(busy, 2)} as busy (${fixed(ca.coresBusy, 2)})`
  );
}

/** A missed ratio of `a` over `b`, with its CPU reason when both rounds read the machine's CPU. */
export function withCpuWhy(check: TargetCheck, a?: StrategyResult, b?: StrategyResult): TargetCheck {
  if (check.met !== false || !a || !b || check.why) return check;
  const why = cpuWhy(a, b);
  return why ? { ...check, why } : check;
}
