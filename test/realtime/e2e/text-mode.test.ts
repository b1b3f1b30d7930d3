// End to end, in Chromium against the service process: a visitor starts a widget call by text (no device
// prompt), types a question and reads the echo PAL's written reply, with no PAL audio sent to the page;
// switched to voice, the PAL's replies are spoken again (audio frames arrive).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createDeployment, createPal, customerPage, openPage, palErrors, startWorld, type World } from '../../helpers/e2e-world.js';

const QUESTION = 'Please write this answer back to me in the chat.';

describe('text mode in Chromium through pal-widget', { timeout: 120_000 }, () => {
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

  it('starts by text, answers in writing without audio, and speaks again after switching to voice', async () => {
    const palId = await createPal(world, {
      pal_name: 'Text PAL',
      default_face_id: 'rpalkitada',
      custom_greeting: 'Hi.',
      disclosure_type: 'off',
    });
    const id = await createDeployment(world, {
      pal_id: palId,
      channel: 'widget',
      allowed_origins: [world.siteOrigin],
      customization: { show_haircheck: true },
    });
    page = await openPage(world);
    // The PAL's voice travels as binary WebSocket frames of the room.
    const audioFrames: number[] = [];
    page.on('websocket', (socket) =>
      socket.on('framereceived', (frame) => {
        if (typeof frame.payload !== 'string') audioFrames.push(Date.now());
      }),
    );
    await page.goto(world.sitePage(`/text-${id}`, customerPage(world.serviceUrl, `<pal-widget deployment-id="${id}"></pal-widget>`)));
    await page.locator('pal-widget [part="launcher"]').click();
    await page.locator('pal-preview [part="start-text"]').click();

    const input = page.locator('pal-transcript[mode="panel"] input[name="chat"]');
    await input.waitFor();
    assert.equal(await page.locator('pal-haircheck').count(), 0, 'no device check in text mode');
    const replies = page.locator('pal-transcript[mode="panel"] li.replica .bubble');
    await replies.filter({ hasText: 'Hi.' }).waitFor();
    const typedAt = Date.now();
    await input.fill(QUESTION);
    await input.press('Enter');
    await replies.filter({ hasText: QUESTION }).waitFor();
    const written = Date.now() - typedAt;
    assert.equal(audioFrames.length, 0, 'no PAL audio in text mode');
    assert.ok(written < 3000, `the reply was written in ${written} ms`);

    await page.locator('pal-conversation [part="mode-switch"]').click();
    await page.locator('pal-conversation pal-transcript[mode="panel"]').waitFor({ state: 'hidden' });
    await page.evaluate(
      (text) => (document.querySelector('pal-widget') as unknown as { sendChat(t: string): void }).sendChat(text),
      'Now say it out loud.',
    );
    const deadline = Date.now() + 15_000;
    while (audioFrames.length === 0 && Date.now() < deadline) await page.waitForTimeout(100);
    assert.ok(audioFrames.length > 0, 'the PAL speaks again in voice mode');
    assert.deepEqual(await palErrors(page), []);
  });
});
