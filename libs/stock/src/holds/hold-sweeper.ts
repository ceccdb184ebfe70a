import type { HoldsService } from './holds.service';

/** Holds claimed per statement; a full batch is followed at once by the next. */
const BATCH = 200;

/**
 * Expires due holds every `periodMs`, in every replica: the expiry statement claims holds with
 * FOR UPDATE SKIP LOCKED, so sweepers never wait on one another and need no leader. A failed sweep
 * (PostgreSQL away) is simply the next period's work.
 */
export class HoldSweeper {
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly holds: Pick<HoldsService, 'expireDue' | 'expireNaive'>,
    private readonly periodMs: number,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule();
  }

  /** One sweep: every due hold of the exact path, then those of the textbook path. */
  async sweep(): Promise<void> {
    try {
      while ((await this.holds.expireDue(BATCH)) === BATCH && !this.stopped);
      await this.holds.expireNaive();
    } catch (error) {
      this.onError(error);
    }
  }

  /** Stops the timer and waits for a sweep in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.sweeping;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.sweeping = this.sweep().finally(() => {
        this.sweeping = undefined;
        this.schedule();
      });
    }, this.periodMs);
    this.timer.unref();
  }
}
