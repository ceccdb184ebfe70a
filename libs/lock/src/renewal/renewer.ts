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
  private stopped = false;

  constructor(private readonly now: () => number = Date.now) {}

  add(renewal: Renewal): void {
    if (this.stopped) return;
    this.renewals.set(renewal.id, renewal);
    this.schedule.add(renewal.id, renewal.intervalMs, this.now());
    this.arm();
  }

  /** Stops renewing `id`; resolves once no renewal of it is in flight. */
  async remove(id: string): Promise<void> {
    this.renewals.delete(id);
    this.schedule.remove(id);
    this.arm();
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
    this.arm();
    await Promise.all(this.inFlight.values());
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.schedule.nextDueAt();
    if (next === undefined) return;
    this.timer = setTimeout(() => this.tick(), Math.max(0, next - this.now()));
    this.timer.unref?.();
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
