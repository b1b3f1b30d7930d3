// End to end, in Chromium: a customer page whose Content-Security-Policy allows only the palkit service's
// origin for scripts, styles, connections, images and media — no 'unsafe-inline', no 'unsafe-eval', no
// blob: or data: — walks a whole call through pal-embed (preview, device check with the microphone
// worklet, the PAL's greeting and a trained face's video, a typed question and its answer, a canvas card,
// end) and must report no violation at all.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  createDeployment,
  createPal,
  customerPage,
  openPage,
  palErrors,
  startWorld,
  trainFace,
  type World,
} from '../../helpers/e2e-world.js';

/** The policy the README gives site owners, for a service at `service`. */
export function strictPolicy(service: string): string {
  const origin = new URL(service).origin;
  const socket = origin.replace(/^http/, 'ws');
  return [
    "default-src 'none'",
    `script-src ${origin}`,
    `style-src ${origin}`,
    `connect-src ${origin} ${socket}`,
    `img-src ${origin}`,
    `media-src ${origin}`,
    `font-src ${origin}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

type Violation = { directive: string; blocked: string; sample: string; source: string };

describe('a call on a strict Content-Security-Policy page', { timeout: 150_000 }, () => {
  let world: World;
  let page: Page;

  before(async () => {
    world = await startWorld();
  });
  after(async () => {
    await page
      ?.context()
      .close()
      .catch(() => undefined);
    await world?.close();
  });

  it('walks preview → device check → call → typed answer → canvas card → end with zero violations', async () => {
    const faceId = await trainFace(world);
    const palId = await createPal(world, { pal_name: 'Strict PAL', default_face_id: faceId, custom_greeting: 'Hello from a strict page.' });
    const id = await createDeployment(world, {
      pal_id: palId,
      channel: 'embed',
      allowed_origins: [world.siteOrigin],
      limits: { participant_left_timeout: 0 },
    });
    page = await openPage(world);
    await page.context().addInitScript(() => {
      const seen: Violation[] = [];
      (window as unknown as { __violations: Violation[] }).__violations = seen;
      document.addEventListener(
        'securitypolicyviolation',
        (e) =>
          seen.push({
            directive: e.effectiveDirective,
            blocked: e.blockedURI,
            sample: e.sample,
            source: `${e.sourceFile}:${e.lineNumber}`,
          }),
        true,
      );
    });
    const html = customerPage(world.serviceUrl, `<pal-embed deployment-id="${id}" user-name="Dana"></pal-embed>`);
    await page.goto(world.sitePage(`/strict-${id}`, html, { 'content-security-policy': strictPolicy(world.serviceUrl) }));
    const violations = () => page.evaluate(() => (window as unknown as { __violations: Violation[] }).__violations);
    try {
      await walk(world, page);
    } catch (error) {
      await page.screenshot({ path: '/tmp/csp-fail.png' }).catch(() => undefined);
      throw new Error(`${(error as Error).message}\nviolations so far: ${JSON.stringify(await violations(), null, 1)}`);
    }
    assert.deepEqual(await violations(), [], 'no violation');
    assert.deepEqual(await palErrors(page), []);
  });
});

/** The visitor's whole call, as a person would walk it. */
async function walk(world: World, page: Page): Promise<void> {
  await page.locator('pal-preview [part="start"]').click();
  await page.locator('pal-haircheck [part="join"]').click();
  await page.locator('pal-controls [part="end"]').waitFor();
  await page
    .locator('pal-transcript[mode="captions"] [part="captions"] .caption-text')
    .filter({ hasText: 'Hello from a strict page.' })
    .waitFor({ timeout: 20_000 });

  await page.locator('pal-controls button[aria-label="Chat"]').click();
  const input = page.locator('pal-transcript[mode="panel"] form[part="chat"] input');
  await input.fill('Is this page strict?');
  await input.press('Enter');
  await page
    .locator('pal-transcript[mode="panel"] li.replica .bubble')
    .filter({ hasText: 'Is this page strict?' })
    .waitFor({ timeout: 20_000 });

  const started = await page.evaluate(
    () => (window as any).__pal.events.find((e: any) => e.type === 'pal-conversation-started')?.detail.conversationId as string,
  );
  const pushed = await world.api('POST', `/v2/conversations/${started}/events`, {
    message_type: 'conversation',
    event_type: 'conversation.tool_call',
    properties: {
      name: 'canvas_show_question',
      arguments: JSON.stringify({
        question: 'Which colour?',
        options: [
          { id: 'red', label: 'Red' },
          { id: 'blue', label: 'Blue' },
        ],
      }),
      tool_call_id: 'csp-card',
    },
  });
  assert.equal(pushed.status, 200, JSON.stringify(pushed.body));
  await page.locator('pal-canvas').getByRole('heading', { name: 'Which colour?' }).waitFor();

  await page.locator('pal-controls [part="end"]').click();
  await page
    .locator('pal-embed')
    .getByText(/thank/i)
    .first()
    .waitFor({ timeout: 15_000 })
    .catch(() => undefined);
}
