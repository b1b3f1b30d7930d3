// End to end, in Chromium against the service process on a PGlite data directory: the service is restarted
// (SIGTERM, as a deploy does) during a call. The room closes its sockets with 1012 ("join again"); the
// element tells the visitor it is reconnecting, joins the same conversation again once the service is back,
// and the call goes on: the PAL answers, nothing ended, no error.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  createDeployment,
  createPal,
  customerPage,
  eventually,
  openPage,
  palErrors,
  palEvents,
  startWorld,
  type World,
} from '../../helpers/e2e-world.js';

describe('a service restart during a call', { timeout: 180_000 }, () => {
  const data = mkdtempSync(join(tmpdir(), 'palkit-restart-'));
  let world: World;
  let page: Page;

  before(async () => {
    world = await startWorld({ PALKIT_DATA: data });
  });
  after(async () => {
    await page
      ?.context()
      .close()
      .catch(() => undefined);
    await world?.close();
    rmSync(data, { recursive: true, force: true });
  });

  const replies = (): Promise<string[]> =>
    page.evaluate(() =>
      (window as any).__pal.messages
        .filter((m: any) => m.event_type === 'conversation.utterance' && m.properties.role === 'replica')
        .map((m: any) => m.properties.speech as string),
    );
  const say = (text: string) =>
    page.evaluate((t) => (document.querySelector('pal-embed') as unknown as { sendChat(text: string): void }).sendChat(t), text);

  it('the element joins the same conversation again and the PAL answers; the visitor saw it reconnecting', async () => {
    const palId = await createPal(world, { pal_name: 'Restart PAL', default_face_id: 'rpalkitada', custom_greeting: 'Hello.' });
    const id = await createDeployment(world, { pal_id: palId, channel: 'embed', customization: { show_haircheck: false } });
    page = await openPage(world);
    await page.goto(world.sitePage(`/restart-${id}`, customerPage(world.serviceUrl, `<pal-embed deployment-id="${id}"></pal-embed>`)));
    await page.locator('pal-preview [part="start"]').click();
    await page.locator('pal-controls [part="end"]').waitFor();
    await say('Before the restart');
    await eventually(replies, (r) => r.some((s) => s.includes('Before the restart')), 'the answer before the restart');

    const notices: string[] = [];
    const watching = setInterval(() => {
      void page
        .locator('pal-conversation [part="notice"]')
        .allTextContents()
        .then(
          (t) => notices.push(...t),
          () => undefined,
        );
    }, 100);
    const started = Date.now();
    try {
      await world.restartService();
      const restartMs = Date.now() - started;
      await eventually(
        () => page.locator('pal-conversation [part="notice"]').allTextContents(),
        (t) => !t.join().includes('Reconnecting'),
        'the notice to go once joined again',
        30_000,
      );
      console.log(`# the service restarted in ${restartMs} ms; the call went on ${Date.now() - started} ms after the restart began`);
    } finally {
      clearInterval(watching);
    }
    assert.ok(
      notices.some((t) => /Reconnecting/.test(t)),
      `the visitor was told (${JSON.stringify([...new Set(notices)])})`,
    );

    await say('After the restart');
    await eventually(replies, (r) => r.some((s) => s.includes('After the restart')), 'the answer after the restart', 20_000);
    assert.equal(await page.evaluate(() => (document.querySelector('pal-embed') as unknown as { state: string }).state), 'connected');
    const events = (await palEvents(page)).map((e) => e.type);
    assert.equal(events.filter((t) => t === 'pal-conversation-started').length, 1, 'the same conversation');
    assert.ok(!events.includes('pal-conversation-ended'), `nothing ended (${events.join(', ')})`);
    assert.deepEqual(await palErrors(page), []);
    const conversations = (await world.api('GET', '/v2/conversations?status=active&limit=100')).body.data.filter(
      (c: { deployment_id: string }) => c.deployment_id === id,
    );
    assert.equal(conversations.length, 1);
  });
});
