// Work waiting for a shared engine, served round-robin across lanes (one lane per room), so one room's
// flood of sentences waits behind its own sentences, never in front of another room's. Each lane holds a
// bounded number of items; a cancelled item is taken out at once and never reaches an engine.
export class FairQueue<T> {
  /** Lanes with waiting items, in the order they are next served (a Map keeps insertion order). */
  private readonly lanes = new Map<string, T[]>();

  constructor(private readonly perLane: number) {}

  get size(): number {
    let n = 0;
    for (const items of this.lanes.values()) n += items.length;
    return n;
  }

  /** Adds an item at the back of its lane (or the front, for a retry); false when the lane is full. */
  push(lane: string, item: T, front = false): boolean {
    const items = this.lanes.get(lane) ?? [];
    if (!front && items.length >= this.perLane) return false;
    if (front) items.unshift(item);
    else items.push(item);
    if (!this.lanes.has(lane)) this.lanes.set(lane, items);
    return true;
  }

  remove(lane: string, item: T): void {
    const items = this.lanes.get(lane);
    const at = items?.indexOf(item) ?? -1;
    if (!items || at < 0) return;
    items.splice(at, 1);
    if (!items.length) this.lanes.delete(lane);
  }

  /** The first item of the lane whose turn it is (among those `ready` accepts); that lane then goes to the back of the round. */
  shift(ready: (lane: string) => boolean = () => true): T | undefined {
    for (const [lane, items] of this.lanes) {
      if (!ready(lane)) continue;
      this.lanes.delete(lane);
      const item = items.shift();
      if (items.length) this.lanes.set(lane, items);
      if (item !== undefined) return item;
    }
    return undefined;
  }

  /** Empties every lane, returning what was waiting. */
  drain(): T[] {
    const all = [...this.lanes.values()].flat();
    this.lanes.clear();
    return all;
  }
}
