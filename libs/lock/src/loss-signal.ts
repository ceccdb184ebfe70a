/**
 * A hold's "lock lost" signal, made only when the critical section first asks for it. Most
 * sections never look, and an AbortController costs about a twentieth of the CPU of a locally
 * handed-off grant (V8 profile of the lock micro-bench), paid on every grant. A loss reported
 * before anyone asked is kept, so the signal comes out aborted with its reason.
 */
export class LossSignal {
  private controller?: AbortController;
  private lost = false;
  private reason: unknown;

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.lost) this.controller.abort(this.reason);
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
