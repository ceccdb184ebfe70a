/** Proof that nothing invalidated a coupon's memo since a grab began: see `SoldOutMemo.markSoldOut`. */
export interface MemoTicket {
  readonly couponId: number;
  readonly resets: number;
  readonly session: number;
}

/**
 * Which coupons this process knows to be sold out, so their buyers are answered without a
 * database round trip. Stock of record only falls between resets, so "sold out" stays true until
 * the coupon is reset; every reset reaches this process through the database's own LISTEN/NOTIFY
 * (`StockListener`). The memo is trusted only while that listening session lives: when it drops,
 * every memo is forgotten, since a reset may have gone unheard. And only for `trustMs` after the
 * session last proved alive (a heartbeat it answered): a session that went half-open, or a
 * process that was frozen, stops answering from memory by itself (see reset-channel.ts).
 *
 * A grab takes a ticket when it begins and may record "sold out" only if no reset and no change
 * of session happened since: a grab that read the stock before a reset cannot leave a stale memo
 * behind it.
 */
export class SoldOutMemo {
  private readonly soldOut = new Set<number>();
  private readonly resets = new Map<number, number>();
  private session = 0;
  private listening = false;
  /** Until when (on `now`'s clock) the listening session is trusted. */
  private trustedUntil = -Infinity;

  constructor(
    private readonly trustMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  ticket(couponId: number): MemoTicket {
    return { couponId, resets: this.resets.get(couponId) ?? 0, session: this.session };
  }

  isSoldOut(couponId: number): boolean {
    return this.listening && this.now() < this.trustedUntil && this.soldOut.has(couponId);
  }

  /** The grab holding `ticket` saw the coupon's stock of record at 0. */
  markSoldOut(ticket: MemoTicket): void {
    if (!this.listening || ticket.session !== this.session) return;
    if ((this.resets.get(ticket.couponId) ?? 0) !== ticket.resets) return;
    this.soldOut.add(ticket.couponId);
  }

  /** A reset of the coupon was heard: forget it, and void every ticket taken before. */
  reset(couponId: number): void {
    this.resets.set(couponId, (this.resets.get(couponId) ?? 0) + 1);
    this.soldOut.delete(couponId);
  }

  /** Resets are heard from now on; the session proved alive at `confirmedAt` (on `now`'s clock). */
  listeningStarted(confirmedAt: number): void {
    this.session += 1;
    this.listening = true;
    this.confirmed(confirmedAt);
  }

  /** The session answered a heartbeat sent at `sentAt`: every reset committed before was heard. */
  confirmed(sentAt: number): void {
    this.trustedUntil = Math.max(this.trustedUntil, sentAt + this.trustMs);
  }

  /** Resets may go unheard: forget everything, and void every ticket. */
  listeningStopped(): void {
    this.session += 1;
    this.listening = false;
    this.trustedUntil = -Infinity;
    this.soldOut.clear();
    this.resets.clear();
  }

  /** How many coupons are remembered as sold out (for metrics). */
  get size(): number {
    return this.soldOut.size;
  }
}
