import type { MachineCpu } from './metrics/machine-cpu';
import { fixed } from './report/format';
import type { TargetCheck } from './target-check';

/** One side of a comparison: what it is called, and what its round cost the machine. */
export interface CpuSide {
  readonly name: string;
  readonly cpu?: MachineCpu;
}

/**
 * Why `a` ran slower than `b`, in the machine's CPU. A rate is the cores kept busy over the CPU
 * each unit (`per`) takes, over the same span, so a's rate over b's is exactly the product of two
 * factors: b's CPU per unit over a's (the work each cost), and the cores a kept busy over b's
 * (below 1: more of the machine left idle, waiting or taken by the hypervisor). Undefined when
 * either side has no CPU reading.
 */
export function cpuWhy(per: string, a: CpuSide, b: CpuSide): string | undefined {
  const ca = a.cpu;
  const cb = b.cpu;
  if (!ca || !cb || ca.microsEach <= 0 || cb.coresBusy <= 0) return undefined;
  const work = cb.microsEach / ca.microsEach;
  const busy = ca.coresBusy / cb.coresBusy;
  return (
    `the machine spent ${fixed(ca.microsEach)} µs of CPU per ${per} for ${a.name}, against ${fixed(cb.microsEach)} for ${b.name}: ` +
    `with the cores as busy as ${b.name} kept them (${fixed(cb.coresBusy, 2)}) that would allow ${fixed(work, 2)}×; ` +
    `${a.name} kept them ${fixed(busy, 2)}× as busy (${fixed(ca.coresBusy, 2)})`
  );
}

/** A missed ratio of `a` over `b`, with its CPU reason when both sides read the machine's CPU. */
export function withCpuWhy(check: TargetCheck, per: string, a?: CpuSide, b?: CpuSide): TargetCheck {
  if (check.met !== false || !a || !b || check.why) return check;
  const why = cpuWhy(per, a, b);
  return why ? { ...check, why } : check;
}
