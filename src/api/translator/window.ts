// The pay-once layer's window of texts seen lately (reuse.ts).
/**
 * The dedupe window: the last `size` distinct keys at least (up to twice as many), as two maps,
 * the newest generation and the one before; when the newest holds `size` keys it becomes the older
 * one and the oldest is let go whole. No per-key deletes: a map that only grows stays fast (a
 * first-in first-out sweep deleting every key again cost a third of the layer's time).
 */
export class Generations<V> {
  private newest = new Map<string, V>();
  private older = new Map<string, V>();
  constructor(private readonly size: number) {}
  get(k: string): V | undefined {
    return this.newest.get(k) ?? this.older.get(k);
  }
  set(k: string, v: V): void {
    this.newest.set(k, v);
    if (this.newest.size >= this.size) {
      this.older = this.newest;
      this.newest = new Map();
    }
  }
}
