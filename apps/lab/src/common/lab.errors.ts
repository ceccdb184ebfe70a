import type { LabErrorCode, RunningScenario } from '@app/contract';
import { CodedError } from '@app/errors';

/** Errors of the lab server: each has a stable code (the filter maps it to a status) and may add fields to the body. */
export abstract class LabError extends CodedError {
  abstract override readonly code: LabErrorCode;
  /** Fields of the error body besides `code` and `message`. */
  details(): Record<string, unknown> {
    return {};
  }
}

export class NotFoundError extends LabError {
  readonly code = 'ROUTE.NOT_FOUND';
}

/** This deployment cannot do it (no control endpoint, no servers of the lab's own). */
export class UnavailableError extends LabError {
  readonly code = 'LAB.UNAVAILABLE';
}

export class NoLoadError extends LabError {
  readonly code = 'LAB.NO_LOAD';
  constructor() {
    super('faults go into a running load: start a load first');
  }
}

export class LabBusyError extends LabError {
  readonly code = 'LAB.BUSY';
  constructor(readonly running: RunningScenario) {
    super(`one scenario at a time: the ${running.kind} "${running.name}" runs since ${running.startedAt}`);
  }
  override details() {
    return { running: this.running };
  }
}

/** The API behind nginx did not answer, or answered an error where the lab needed a result. */
export class DependencyError extends LabError {
  readonly code = 'DEPENDENCY.UNAVAILABLE';
}

/** The client went away (or asked to stop): the run unwinds through its clean-ups. */
export class RunCancelledError extends CodedError {
  readonly code = 'LAB.CANCELLED';
  constructor() {
    super('the run was cancelled: its client went away');
  }
}
