/**
 * Values made from a string key, kept for the last `limit` keys made (the oldest made is dropped
 * first): a hot lock's names are built once, not on every grant, and the map stays bounded.
 */
export class RecentMap<V> {
  private readonly values = new Map<string, V>();

  constructor(
    private readonly limit: number,
    private readonly make: (key: string) => V,
  ) {}

  get(key: string): V {
    let value = this.values.get(key);
    if (value === undefined) {
      value = this.make(key);
      if (this.values.size >= this.limit) this.values.delete(this.values.keys().next().value!);
      this.values.set(key, value);
    }
    return value;
  }
}
