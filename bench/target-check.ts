/** One performance target checked against a run; `met` undefined when the run could not measure it. */
export interface TargetCheck {
  readonly target: string;
  readonly measured: string;
  readonly met: boolean | undefined;
  /** Why it falls short, from the run's own figures (only where the run can tell). */
  readonly why?: string;
}
