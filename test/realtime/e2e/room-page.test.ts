// The page behind a local conversation_url, as a visitor opens a link the service handed out: the
// script-tag bundle loads from the service's root (not under /rooms/…), the meeting token in the URL
// fragment joins the call, and the PAL's greeting reaches the captions.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPal, eventually, startWorld, trainFace, type World } from '../../helpers/e2e-world.js';

describe('the hosted conversation page', { timeout: 120_000 }, () => {
  let world: World;
  before(async () => {
    world = await startWorld();
  });
  after(async () => world?.close());

  it('joins from conversation_url#t=<meeting token> and shows the call', async () => {
    const faceId = await trainFace(world);
    const palId = await createPal(world, {
      pal_name: 'Room page PAL',
      default_face_id: faceId,
      custom_greeting: 'Welcome to the hosted room page.',
    });
    const created = await world.api('POST', '/v2/conversations', { pal_id: palId });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const context = await world.browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      const missing: string[] = [];
      page.on('response', (r) => r.status() >= 400 && missing.push(`${r.status()} ${r.url()}`));
      await page.goto(`${created.body.conversation_url}#t=${encodeURIComponent(created.body.meeting_token)}`);
      await page.locator('pal-conversation pal-controls').waitFor({ state: 'attached', timeout: 20_000 });
      assert.equal(new URL(page.url()).hash, '', 'the token leaves the address bar');
      const captions = await eventually(
        () =>
          page
            .locator('pal-conversation')
            .evaluate(
              (el) =>
                el.shadowRoot!.textContent +
                [...el.shadowRoot!.querySelectorAll('pal-transcript')].map((t) => t.shadowRoot!.textContent).join(' '),
            ),
        (text) => text.includes('hosted room page'),
        'the greeting in the captions',
        20_000,
      );
      assert.match(captions, /hosted room page/);
      assert.deepEqual(missing, []);
    } finally {
      await context.close();
    }
  });
});
