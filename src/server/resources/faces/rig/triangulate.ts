// Delaunay triangulation of a few hundred points (Bowyer–Watson: each point added splits the triangles whose
// circumcircle holds it). A rig's mesh is triangulated once per face; O(n²) over ~600 points takes milliseconds.
type Point = readonly [number, number];

interface Tri {
  a: number;
  b: number;
  c: number;
  x: number;
  y: number;
  r2: number;
}

/** Triangles (index triples, counter-clockwise in image axes) covering the points' hull. */
export function triangulate(points: readonly Point[]): Array<[number, number, number]> {
  const n = points.length;
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) [minX, minY, maxX, maxY] = [Math.min(minX, x), Math.min(minY, y), Math.max(maxX, x), Math.max(maxY, y)];
  const span = Math.max(maxX - minX, maxY - minY) * 20 + 1;
  const [mx, my] = [(minX + maxX) / 2, (minY + maxY) / 2];
  // A super-triangle holding every point; its corners are n, n+1, n+2.
  const all: Point[] = [...points, [mx - span, my - span], [mx + span, my - span], [mx, my + span]];
  const circle = (a: number, b: number, c: number): Tri => {
    const [ax, ay] = all[a]!;
    const [bx, by] = all[b]!;
    const [cx, cy] = all[c]!;
    const d = 2 * (ax * (by - cy) + bx * (cy - ay) + cx * (ay - by));
    if (Math.abs(d) < 1e-12) return { a, b, c, x: 0, y: 0, r2: Infinity };
    const x = ((ax * ax + ay * ay) * (by - cy) + (bx * bx + by * by) * (cy - ay) + (cx * cx + cy * cy) * (ay - by)) / d;
    const y = ((ax * ax + ay * ay) * (cx - bx) + (bx * bx + by * by) * (ax - cx) + (cx * cx + cy * cy) * (bx - ax)) / d;
    return { a, b, c, x, y, r2: (ax - x) ** 2 + (ay - y) ** 2 };
  };
  let tris: Tri[] = [circle(n, n + 1, n + 2)];
  for (let i = 0; i < n; i++) {
    const [px, py] = all[i]!;
    const edges = new Map<string, [number, number]>();
    const keep: Tri[] = [];
    for (const t of tris) {
      if ((px - t.x) ** 2 + (py - t.y) ** 2 <= t.r2 * (1 + 1e-9)) {
        for (const [u, v] of [
          [t.a, t.b],
          [t.b, t.c],
          [t.c, t.a],
        ] as Array<[number, number]>) {
          const key = u < v ? `${u},${v}` : `${v},${u}`;
          if (edges.has(key)) edges.delete(key);
          else edges.set(key, [u, v]);
        }
      } else keep.push(t);
    }
    for (const [u, v] of edges.values()) keep.push(circle(u, v, i));
    tris = keep;
  }
  return tris
    .filter((t) => t.a < n && t.b < n && t.c < n)
    .map((t) => {
      const [[ax, ay], [bx, by], [cx, cy]] = [all[t.a]!, all[t.b]!, all[t.c]!];
      return (bx - ax) * (cy - ay) - (cx - ax) * (by - ay) > 0 ? [t.a, t.b, t.c] : [t.a, t.c, t.b];
    });
}
