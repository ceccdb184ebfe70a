/**
 * The last `capacity` items pushed, oldest first when read. Pushing past capacity overwrites the
 * oldest in place: constant time per push, where dropping the head of an array moves every item
 * (the lock event log takes two pushes per grant on the hot path).
 */
export class RingBuffer<T> {
  private readonly items: T[] = [];
  /** Where the next push goes once the buffer is full (then also the oldest item). */
  private next = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be ≥ 1, got ${capacity}`);
  }

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    if (this.items.length < this.capacity) {
      this.items.push(item);
      return;
    }
    this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
  }

  /** The items that pass `keep`, oldest first. */
  filter(keep: (item: T) => boolean): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.items.length; i += 1) {
      const item = this.items[(this.next + i) % this.items.length];
      if (keep(item)) out.push(item);
    }
    return out;
  }
}
