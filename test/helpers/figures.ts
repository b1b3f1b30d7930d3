// A real-time test's figures, reported rather than chased: each is printed as one `palkit-figure {json}` line
// (from Node or from a page: the browser's console reaches the runner's output too), which
// scripts/test-realtime.mjs gathers into .palkit/results/<file>.json, and `npm run report` compares with the
// run before. A bar is given only where a visitor's experience needs one (the test asserts it); the rest are
// figures to watch.
export interface Figure {
  /** Stable across runs, engine included where it matters: `chromium, Ada, quiet: lag`. */
  name: string;
  value: number;
  unit: string;
  /** Which way is better, for the report's arrows. */
  better?: 'lower' | 'higher';
  /** The bar the test asserts (`bar`) or a goal it only reports (`goal`), and whether this run met it. */
  bar?: string;
  goal?: string;
  met?: boolean;
}

export const FIGURE_MARK = 'palkit-figure';

export function reportFigure(figure: Figure): void {
  console.log(`${FIGURE_MARK} ${JSON.stringify({ ...figure, value: Math.round(figure.value * 100) / 100 })}`);
}
