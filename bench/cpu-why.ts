import { fixed } from './report/format';
import type { TargetCheck } from './target-check';
import type { StrategyResult } from './types';

/**
 * Why `a` ran slower than `b`, in the machine's CPU. A rate is the cores kept busy over the CPU
 * each grant takes (both up to the last grant), so a's rate over b's is exactly the product of two
 * factors: b's CPU per grant over a's (the work each grant cost, turned-away answers on the way
 * included), and the cores a kept busy over b's (below 1: more of the machine left idle, waiting or
 * taken by the hypervisor). Undefined when either round has no CPU reading.
 */
export function cpuWhy(a: StrategyResult, b: StrategyResult): string | undefined {
  const ca = a.machineCpu;
  const cb = b.machineCpu;
  if (!ca || !cb || ca.microsPerGrant <= 0 || cb.coresBusy <= 0) return undefined;
  const work = cb.microsPerGrant / ca.microsPerGrant;
  const busy = ca.coresBusy / cb.coresBusy;
  return (
    `the machine spent ${fixed(ca.microsPerGrant)} µs of CPU per grant up to the last grant, against ${b.strategy}'s ${fixed(cb.microsPerGrant)}: ` +
    `with the cores as busy as ${b.strategy} kept them (${fixed(cb.coresBusy, 2)}) that would allow ${fixed(work, 2)}×; ` +
    `${a.strategy} kept them ${fixed(busy, 2)}× as busy (${fixed(ca.coresBusy, 2)})`
  );
}

/** A missed ratio of `a` over `b`, with its CPU reason when both rounds read the machine's CPU. */
export function withCpuWhy(check: TargetCheck, a?: StrategyResult, b?: StrategyResult): TargetCheck {
  if (check.met !== false || !a || !b || check.why) return check;
  const why = cpuWhy(a, b);
  return why ? { ...check, why } : check;
}
