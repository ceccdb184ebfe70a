/**
 * A hold's "lock lost" signal, made only when the critical section first asks for it. A section
 * that never looks (the micro-bench's) then pays nothing for it: an AbortController cost about a
 * twentieth of the CPU of a locally handed-off grant there (V8 profile). The API's section looks
 * on every grant (it checks before committing), so it still makes one. A loss reported before
 * anyone asked is kept, so the signal comes out aborted with its reason. `onFirstLook` runs when
 * it is first asked for: a hold handed on within its run is checked in Redis only then.
 */
export class LossSignal {
  private controller?: AbortController;
  private lost = false;
  private reason: unknown;

  constructor(private readonly onFirstLook?: () => void) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.lost) this.controller.abort(this.reason);
      else this.onFirstLook?.();
    }
    return this.controller.signal;
  }

  /** The lock is known lost: the signal, made now or later, is aborted with `reason`. The first report wins. */
  abort(reason: unknown): void {
    if (this.lost) return;
    this.lost = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}
