import { gateMark } from '@app/contract';

/** Where a stepped grab tells where it is, and waits for the word to go on (Redis in the app). */
export interface GatePort {
  /** Publishes the gate's mark (`<n>:<step>`). */
  announce(mark: string): Promise<void>;
  /** Waits up to `ms` for one "go"; false when none came. */
  awaitGo(ms: number): Promise<boolean>;
  close(): void;
}

/**
 * One stepped grab's gate: at each named point of its path it says where it is and waits to be
 * stepped. A grab nobody steps for `holdMs` (since it began, or was last stepped: time spent
 * waiting for a lock counts) is let go: that point and every later one pass at once, so a closed
 * tab leaves no request (nor its lock) held for longer than that.
 */
export class StepGate {
  private reached = 0;
  private released = false;
  private lastGo: number;

  constructor(
    private readonly port: GatePort,
    private readonly holdMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.lastGo = now();
  }

  /** Waits at `step` until stepped (or let go); the grab then runs exactly that step. */
  readonly checkpoint = async (step: string): Promise<void> => {
    if (this.released) return;
    this.reached += 1;
    await this.port.announce(gateMark(this.reached, step));
    const left = this.lastGo + this.holdMs - this.now();
    if (left > 0 && (await this.port.awaitGo(left))) {
      this.lastGo = this.now();
      return;
    }
    this.released = true;
    await this.port.announce(gateMark(this.reached, 'released')).catch(() => undefined);
  };

  /** True once the gate let its grab go unstepped. */
  get letGo(): boolean {
    return this.released;
  }

  close(): void {
    this.port.close();
  }
}
