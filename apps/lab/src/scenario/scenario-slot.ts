import type { FinishedScenario, LabState, RunningScenario } from '@app/contract';
import { LabBusyError, RunCancelledError } from '../common/lab.errors';

/** A claimed slot: the run's cancel signal, and how it ends. */
export interface Claim<Extra = unknown> {
  readonly info: RunningScenario;
  readonly signal: AbortSignal;
  /** Ends the run because its client went away: everything it does checks `signal`. */
  readonly cancel: () => void;
  /** Hands what the run owns (the load that faults go into) to `running()`. */
  readonly attach: (extra: Extra) => void;
  /** Frees the slot once the run has unwound; `cancelled` when the signal fired. */
  readonly finish: (
    end: Omit<FinishedScenario, keyof RunningScenario | 'endedAt' | 'outcome'> & { error?: string },
  ) => void;
}

/** One scenario (a load or a step) at a time; what ran last is kept for GET /lab/api/state. */
export class ScenarioSlot<Extra = unknown> {
  private current?: { info: RunningScenario; extra?: Extra; cancel: () => void };
  private last: FinishedScenario | null = null;

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** Throws LabBusyError while another scenario runs. */
  claim(kind: RunningScenario['kind'], name: string): Claim<Extra> {
    if (this.current) throw new LabBusyError(this.current.info);
    const info: RunningScenario = { kind, name, startedAt: this.now().toISOString() };
    const controller = new AbortController();
    const cancel = () => controller.abort(new RunCancelledError());
    const current: { info: RunningScenario; extra?: Extra; cancel: () => void } = { info, cancel };
    this.current = current;
    let finished = false;
    return {
      info,
      signal: controller.signal,
      cancel,
      attach: (extra) => {
        current.extra = extra;
      },
      finish: ({ error, ...end }) => {
        if (finished) return;
        finished = true;
        const outcome = controller.signal.aborted ? 'cancelled' : error ? 'error' : 'done';
        this.last = {
          ...info,
          ...end,
          outcome,
          endedAt: this.now().toISOString(),
          ...(error ? { message: error } : {}),
        };
        this.current = undefined;
      },
    };
  }

  /** What runs now (with what its owner attached, e.g. the load that faults go into). */
  running(): { info: RunningScenario; extra?: Extra } | undefined {
    return this.current;
  }

  /** Cancels whatever runs (the server is shutting down); false when nothing did. */
  cancelRunning(): boolean {
    this.current?.cancel();
    return this.current !== undefined;
  }

  state(): LabState {
    return { running: this.current?.info ?? null, last: this.last };
  }
}
