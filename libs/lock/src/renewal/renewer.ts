import { RenewalSchedule } from './renewal-schedule';

/** A held lock the renewer keeps alive. */
export interface Renewal {
  readonly id: string;
  readonly intervalMs: number;
  /** Extends the lease; false when the lock is found not ours any more. */
  renew(): Promise<boolean>;
  onRenewed(): void;
  /** Called once, when a renewal found the lock gone; the renewal is dropped. */
  onLost(): void;
}

/**
 * The one renewer of a process (Redisson's watchdog): a single timer over every held lock. It
 * never lets a renewal outlive a release: `remove` waits for a renewal in flight.
 */
export class Renewer {
  private readonly schedule = new RenewalSchedule();
  private readonly renewals = new Map<string, Renewal>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer was set to fire, by `now`; read only while `timer` is set. */
  private armedFor = 0;
  private stopped = false;

  /** `now` is monotonic, like the timers it is set against: a wall-clock jump cannot delay a renewal. */
  constructor(private readonly now: () => number = () => performance.now()) {}

  add(renewal: Renewal): void {
    if (this.stopped) return;
    this.renewals.set(renewal.id, renewal);
    this.schedule.add(renewal.id, renewal.intervalMs, this.now());
    this.arm();
  }

  /** Stops renewing `id`; resolves once no renewal of it is in flight. */
  async remove(id: string): Promise<void> {
    this.renewals.delete(id);
    this.schedule.remove(id); // the timer stays: nothing falls due earlier for a removal
    await this.inFlight.get(id);
  }

  has(id: string): boolean {
    return this.renewals.has(id);
  }

  /** Stops every renewal (process shutdown) and waits for those in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.renewals.clear();
    this.schedule.clear();
    this.disarm();
    await Promise.all(this.inFlight.values());
  }

  /**
   * Arms the timer for the next renewal due, unless it is armed for then or earlier: each
   * watchdog hold adds a renewal and removes it, and setting and clearing a timer for each would
   * cost every grant. A timer left armed early fires, finds nothing due, and arms for what is left, if any.
   */
  private arm(): void {
    const next = this.schedule.nextDueAt();
    if (next === undefined || (this.timer && this.armedFor <= next)) return;
    this.disarm();
    this.armedFor = next;
    this.timer = setTimeout(() => this.tick(), Math.max(0, next - this.now()));
    this.timer.unref?.();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    this.timer = undefined;
    for (const id of this.schedule.takeDue(this.now())) {
      const renewal = this.renewals.get(id);
      if (!renewal || this.inFlight.has(id)) continue;
      const done = renewal
        .renew()
        .then(
          (ours) => {
            if (!this.renewals.has(id)) return; // released meanwhile: the release decides
            if (ours) return renewal.onRenewed();
            this.renewals.delete(id);
            this.schedule.remove(id);
            renewal.onLost();
          },
          () => undefined, // Redis unreachable: try again next interval; the lease decides
        )
        .finally(() => this.inFlight.delete(id));
      this.inFlight.set(id, done);
    }
    this.arm();
  }
}
