// Work waiting for a shared engine, one bounded lane per room, served by cost rather than by count: the
// lane that will have had the least engine time once its next item is done goes next (what it has had
// plus that item's expected cost: finish-time fair queueing), so a room that says one short sentence is
// served before another room's long run of chunks, whatever either sent before, and before rooms that
// stand level with it but wait with longer pieces (thirty rooms starting long echoes at once). A lane
// that comes back after a pause starts level with the lanes being served (idle time is not banked as
// credit); a lane that used more than its share keeps that debt. Background lanes (speech items, videos)
// are served only when no live lane is ready. A cancelled item is taken out at once and never reaches an
// engine.

export interface FairQueueOptions<T> {
  /** What serving an item is expected to cost (engine milliseconds, say); corrected later with charge(). Default 1 per item. */
  cost?: (item: T) => number;
  /** Lanes served only when no other lane is ready. */
  background?: (lane: string) => boolean;
}

export class FairQueue<T> {
  /** Lanes with waiting items; among equally served lanes, the one that waited longest comes first (a Map keeps insertion order). */
  private readonly lanes = new Map<string, T[]>();
  /** Cost each lane has been charged, on the queue's virtual clock. */
  private readonly served = new Map<string, number>();
  /** The virtual time: where the lane served last stood when it was served. */
  private floor = 0;
  private readonly cost: (item: T) => number;
  private readonly background: (lane: string) => boolean;

  constructor(
    private readonly perLane: number,
    options: FairQueueOptions<T> = {},
  ) {
    this.cost = options.cost ?? (() => 1);
    this.background = options.background ?? (() => false);
  }

  get size(): number {
    let n = 0;
    for (const items of this.lanes.values()) n += items.length;
    return n;
  }

  /** The first item of every lane (the oldest there, but for a retry put back in front, which is older still). */
  *heads(): Generator<T> {
    for (const items of this.lanes.values()) if (items[0]) yield items[0];
  }

  /** Whether any live (not background) lane has an item waiting. */
  get liveWaiting(): boolean {
    for (const lane of this.lanes.keys()) if (!this.background(lane)) return true;
    return false;
  }

  /** Adds an item at the back of its lane (or the front, for a retry); false when the lane is full. */
  push(lane: string, item: T, front = false): boolean {
    const items = this.lanes.get(lane) ?? [];
    if (!front && items.length >= this.perLane) return false;
    if (front) items.unshift(item);
    else items.push(item);
    if (!this.lanes.has(lane)) {
      this.lanes.set(lane, items);
      this.served.set(lane, Math.max(this.served.get(lane) ?? 0, this.floor));
    }
    return true;
  }

  remove(lane: string, item: T): void {
    const items = this.lanes.get(lane);
    const at = items?.indexOf(item) ?? -1;
    if (!items || at < 0) return;
    items.splice(at, 1);
    if (!items.length) this.lanes.delete(lane);
  }

  /**
   * The first item of the least served lane among those `ready` accepts (given the lane and its first item) (live lanes before background
   * ones), charged its expected cost; the lane then goes behind the others with the same standing.
   */
  shift(ready: (lane: string, first: T) => boolean = () => true): T | undefined {
    let best: { lane: string; items: T[]; served: number; finish: number; background: boolean } | null = null;
    for (const [lane, items] of this.lanes) {
      if (!ready(lane, items[0]!)) continue;
      const background = this.background(lane);
      const served = this.served.get(lane) ?? this.floor;
      // Among lanes that stand level, the one whose next item costs least finishes first and goes first.
      const finish = served + this.cost(items[0]!);
      if (!best || (best.background && !background) || (best.background === background && finish < best.finish))
        best = { lane, items, served, finish, background };
    }
    if (!best) return undefined;
    const item = best.items.shift();
    this.lanes.delete(best.lane);
    if (best.items.length) this.lanes.set(best.lane, best.items);
    if (!best.background) this.floor = Math.max(this.floor, best.served);
    if (item !== undefined) this.charge(best.lane, this.cost(item));
    this.forgetIdle();
    return item;
  }

  /** Adds to (or, with a negative amount, takes from) what a lane has been charged: the measured cost of an item, less its estimate. */
  charge(lane: string, amount: number): void {
    this.served.set(lane, (this.served.get(lane) ?? this.floor) + amount);
  }

  /** Empties every lane, returning what was waiting. */
  drain(): T[] {
    const all = [...this.lanes.values()].flat();
    this.lanes.clear();
    return all;
  }

  /** Lanes without waiting items and without debt are forgotten: they would start level with the floor anyway. */
  private forgetIdle(): void {
    for (const [lane, served] of this.served) if (!this.lanes.has(lane) && served <= this.floor) this.served.delete(lane);
  }
}
