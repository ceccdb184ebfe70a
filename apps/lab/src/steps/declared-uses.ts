import type { GrabOptions, StepNeed } from '@app/contract';

const CHAOS_OPTIONS = ['leaseMs', 'waitMs', 'pauseMs', 'freezeMs', 'crash', 'nested', 'step'] as const;
const FAULT_OPTIONS = ['pauseMs', 'freezeMs', 'crash'] as const;

const given = (options: GrabOptions, keys: readonly (keyof GrabOptions)[]) =>
  keys.filter((key) => options[key] !== undefined && options[key] !== false);

/** What a grab does that a step with `uses` did not declare (undefined when nothing). */
export function undeclaredUse(options: GrabOptions, uses: readonly StepNeed[]): string | undefined {
  const faults = given(options, FAULT_OPTIONS);
  if (faults.length && !uses.includes('fault')) return `${faults.join(', ')} (a fault) without declaring 'fault'`;
  const chaos = given(options, CHAOS_OPTIONS);
  if (chaos.length && !uses.includes('chaos')) return `${chaos.join(', ')} (chaos options) without declaring 'chaos'`;
  return undefined;
}
