import type { StepResult } from '../step';

export interface JsonReport {
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly nginxUrl: string;
  readonly passed: boolean;
  readonly steps: Array<Omit<StepResult, 'timeline' | 'explain'> & { timelineSvg?: string }>;
}

/** The machine-readable results: per step its expectation, observed figures, checks and verdict. */
export function jsonReport(
  results: readonly StepResult[],
  meta: { startedAt: Date; finishedAt: Date; nginxUrl: string },
  svgOf: (r: StepResult) => string | undefined = () => undefined,
): JsonReport {
  return {
    startedAt: meta.startedAt.toISOString(),
    finishedAt: meta.finishedAt.toISOString(),
    nginxUrl: meta.nginxUrl,
    passed: results.every((r) => r.status === 'passed' || r.status === 'skipped'),
    steps: results.map(({ timeline, explain: _explain, ...rest }) => ({
      ...rest,
      ...(timeline && svgOf(rest as StepResult) ? { timelineSvg: svgOf(rest as StepResult) } : {}),
    })),
  };
}
