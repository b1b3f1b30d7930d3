// What the demo site's backend routes share: the demo's API key, its seeded data and this run's site key.
import type { DemoState } from './seed.js';

export interface DemoSiteState {
  key: string;
  state: DemoState | undefined;
  /** This run's secret for the backend routes: a `demo_key` query on a page sets it as a cookie, or the `x-demo-key` header. */
  demoKey: string;
}
