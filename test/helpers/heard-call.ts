// A widget call in Chromium whose typed questions' heard latency is read two ways (issue 26): the
// element's own `pal-turn-latency`, and an analyser that the caller (not the element) runs on the stage's
// audio track. Shared by test/realtime/e2e/turn-latency.test.ts and `npm run bench -- heard`.
import type { Page } from 'playwright-core';
import { createDeployment, createPal, customerPage, eventually, openPage, palEvents, type World } from './e2e-world.js';
import { pageProbes } from './page-probes.js';

// The PAL's voice as the visitor hears it: an analyser on the stage's audio element's stream, in 10 ms bins
// stamped at their output time (in ci10, read at a 10 ms poll instead, an answer's first sound was put 200 ms
// late behind a stalled page: heardMs 154 against the analyser's 357).
const analyser = `${pageProbes}
window.__level = { samples: [] };
window.__listen = () => {
  const stream = window.__probes.stageStream();
  if (!stream) return false;
  window.__probes.outputLevels(new AudioContext(), stream, { binMs: 10 }, ({ at, peak }) => window.__level.samples.push({ at, peak }));
  return true;
};
`;

/** About −50 dBFS: the echo PAL's tone-like voice is far louder, silence far quieter. */
export const AUDIBLE = 0.003;

/** `pal-turn-latency`'s detail, as the page recorded it. */
export interface TurnLatency {
  heardMs?: number;
  mouthMs?: number;
  lipSyncMs?: number;
  turnEndedAt: number;
  input: 'text' | 'speech';
  inference_id: string;
}

export interface HeardCall {
  page: Page;
  conversationId: string;
}

/**
 * An echo PAL with the built-in drawn face in a widget on the customer site, the call started and the
 * analyser listening. `init` scripts run in the page before the element (e.g. a bench's own probes).
 */
export async function openHeardCall(world: World, options: { callbackUrl?: string; init?: string[] } = {}): Promise<HeardCall> {
  const palId = await createPal(world, {
    pal_name: 'Latency PAL',
    custom_greeting: 'Hi.',
    default_face_id: 'rpalkitada',
    disclosure_type: 'off',
  });
  const id = await createDeployment(world, {
    pal_id: palId,
    channel: 'widget',
    allowed_origins: [world.siteOrigin],
    customization: { show_haircheck: false },
    ...(options.callbackUrl ? { callback_url: options.callbackUrl } : {}),
  });
  const page = await openPage(world);
  for (const script of [analyser, ...(options.init ?? [])]) await page.context().addInitScript(script);
  await page.goto(world.sitePage(`/latency-${id}`, customerPage(world.serviceUrl, `<pal-widget deployment-id="${id}"></pal-widget>`)));
  await page.locator('pal-widget [part="launcher"]').click();
  await page.locator('pal-preview [part="start"]').click();
  await page.locator('pal-controls [part="end"]').waitFor();
  const conversationId = (await palEvents(page)).find((e) => e.type === 'pal-conversation-started')!.detail.conversationId as string;
  await eventually(
    () => page.evaluate(() => (window as any).__listen()),
    (ok) => ok === true,
    "the PAL's audio element with a MediaStream",
  );
  return { page, conversationId };
}

/** The reports the element fired so far, oldest first. */
export async function turnLatencies(page: Page): Promise<TurnLatency[]> {
  return (await palEvents(page)).filter((e) => e.type === 'pal-turn-latency').map((e) => e.detail as TurnLatency);
}

/** The analyser's readings (page clock, ms) taken after `since`. */
function levelsSince(page: Page, since: number): Promise<Array<{ at: number; peak: number }>> {
  return page.evaluate((t) => ((window as any).__level.samples as Array<{ at: number; peak: number }>).filter((s) => s.at > t), since);
}

/**
 * Waits until the analyser has heard 300 ms of silence (the last answer is over); with `afterSound`, after a
 * sound heard since the analyser began (the greeting, which a loaded machine can start seconds into the call:
 * silence before it is not its end).
 */
export async function untilSilent(page: Page, { afterSound = false, timeoutMs = 20_000 } = {}): Promise<void> {
  const since = afterSound ? 0 : await page.evaluate(() => performance.now());
  await eventually(
    () => levelsSince(page, since),
    (all) => (!afterSound || all.some((s) => s.peak > AUDIBLE)) && all.length > 30 && all.slice(-30).every((s) => s.peak < AUDIBLE),
    "silence on the PAL's track",
    timeoutMs,
  );
}

export interface TypedTurn {
  /** When the question was sent (page clock, ms). */
  sentAt: number;
  report: TurnLatency;
  /** Ms from sending to the analyser's first audible reading, or undefined when it heard nothing. */
  analysedMs: number | undefined;
}

/** Types `text` into the call and waits for the element's report of the answer. */
export async function askTyped(page: Page, text: string, timeoutMs = 20_000): Promise<TypedTurn> {
  const before = (await turnLatencies(page)).length;
  const sentAt: number = await page.evaluate((question) => {
    (document.querySelector('pal-widget') as any).sendChat(question);
    return performance.now();
  }, text);
  const report = (
    await eventually(
      () => turnLatencies(page),
      (all) => all.length > before,
      'pal-turn-latency',
      timeoutMs,
    )
  )[before]!;
  const heard = (await levelsSince(page, sentAt)).find((s) => s.peak > AUDIBLE);
  return { sentAt, report, analysedMs: heard ? heard.at - sentAt : undefined };
}
