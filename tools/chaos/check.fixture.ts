import type { Check } from './check';

/** The names of the checks that failed, in order: what a spec compares. */
export const failedNames = (checks: readonly Check[]): string[] => checks.filter((c) => !c.ok).map((c) => c.name);
