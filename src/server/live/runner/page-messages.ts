// What the service and a Daily PAL's runner process say to each other over the IPC channel of
// child_process.fork (live/runner/pages.ts ↔ the runner entry).

/** Service → runner, once: the Daily room to join as the PAL, and the PAL's local room to bridge into. */
export interface RunnerStart {
  type: 'start';
  conversationId: string;
  /** Daily's room URL and the PAL bot's owner meeting token (user_id pal_<pal_id>). */
  dailyUrl: string;
  dailyToken: string;
  palName: string;
  /** The PAL's local room (its http(s) URL, as a visitor's conversation_url) and its bridge meeting token (role `bridge`). */
  bridgeUrl: string;
  bridgeToken: string;
  /** The Chromium the page runs in. */
  chromium: string;
  /** The service's address, which serves the runner page and the elements' code. */
  serviceUrl: string;
}

/**
 * Runner → service. `alive` at least every RUNNER_ALIVE_MS (a silent runner is taken as stalled);
 * `joined` once its page is in the Daily room as the PAL; `published` with the kinds of the custom tracks
 * it gave daily-js; `failed` when it cannot go on (it exits next).
 */
export type RunnerReport =
  { type: 'alive' } | { type: 'joined' } | { type: 'published'; tracks: Array<'audio' | 'video'> } | { type: 'failed'; message: string };

/** How often a runner says it is alive. */
export const RUNNER_ALIVE_MS = 2_000;
