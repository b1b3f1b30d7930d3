// Windowing for a long list of variable-height rows: measured heights (an estimate until measured),
// lazily recomputed offsets, and binary search for the rows that cover a viewport. Only those rows
// are in the DOM, so appending to a 5,000-entry transcript costs the same as to a 50-entry one.

export class RowWindow {
  private readonly heights: number[] = [];
  /** offsets[i] is the top of row i; offsets[count] is the total height. */
  private readonly offsets: number[] = [0];
  private dirtyFrom = 0;

  constructor(readonly estimate: number) {}

  get count(): number {
    return this.heights.length;
  }

  setCount(count: number): void {
    if (count === this.heights.length) return;
    if (count < this.heights.length) this.heights.length = count;
    else while (this.heights.length < count) this.heights.push(this.estimate);
    this.offsets.length = Math.min(this.offsets.length, count + 1);
    this.dirtyFrom = Math.min(this.dirtyFrom, Math.max(0, Math.min(count, this.offsets.length - 1)));
  }

  /** Record a measured height; true when it differed from what was assumed. */
  setHeight(index: number, height: number): boolean {
    const old = this.heights[index];
    if (old === undefined || Math.abs(old - height) < 0.5) return false;
    this.heights[index] = height;
    this.dirtyFrom = Math.min(this.dirtyFrom, index);
    return true;
  }

  /** Forget every measurement (e.g. the list width changed, so text wraps differently). */
  resetHeights(): void {
    this.heights.fill(this.estimate);
    this.dirtyFrom = 0;
  }

  offset(index: number): number {
    this.settle();
    return this.offsets[Math.max(0, Math.min(index, this.heights.length))]!;
  }

  get total(): number {
    return this.offset(this.heights.length);
  }

  /** Rows [start, end) intersecting the band [top, bottom]. */
  range(top: number, bottom: number): [number, number] {
    const n = this.heights.length;
    if (n === 0) return [0, 0];
    const start = Math.max(0, this.indexAt(top));
    let end = this.indexAt(bottom) + 1;
    end = Math.min(n, Math.max(end, start + 1));
    return [start, end];
  }

  /** The last rows that fill `height` from the bottom. */
  tail(height: number): [number, number] {
    const n = this.heights.length;
    return [Math.max(0, this.indexAt(this.total - height)), n];
  }

  /** Index of the row containing y (clamped to the list). */
  private indexAt(y: number): number {
    this.settle();
    let lo = 0;
    let hi = this.heights.length - 1;
    if (hi < 0) return 0;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.offsets[mid]! <= y) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  private settle(): void {
    const n = this.heights.length;
    for (let i = this.dirtyFrom; i < n; i++) this.offsets[i + 1] = this.offsets[i]! + this.heights[i]!;
    this.offsets.length = n + 1;
    this.dirtyFrom = n;
  }
}
