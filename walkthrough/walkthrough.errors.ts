/** Errors of the walkthrough: each has a stable code, and a cause where there is one. */
export abstract class WalkthroughError extends Error {
  abstract readonly code: string;
}

/** Bad command-line options. */
export class UsageError extends WalkthroughError {
  override readonly name = 'UsageError';
  readonly code = 'WALKTHROUGH.USAGE';
}

/** Something a step waits for (a lock key, a replica, a Redis replica) did not happen in time. */
export class WaitTimeoutError extends WalkthroughError {
  override readonly name = 'WaitTimeoutError';
  readonly code = 'WALKTHROUGH.WAIT_TIMEOUT';
}

/** A step cannot be set up (e.g. no spare ports for the servers it starts). */
export class StepSetupError extends WalkthroughError {
  override readonly name = 'StepSetupError';
  readonly code = 'WALKTHROUGH.STEP_SETUP';
}
