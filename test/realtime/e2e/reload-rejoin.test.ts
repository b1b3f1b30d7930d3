// End to end, in Chromium against the service process: a full page reload during a call rejoins the
// same conversation in that tab (embed and widget), without the preview; after the visitor ended the
// call a reload shows the preview again, and another tab does not take the call over.
import assert from 'node:assert/strict';
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
  trainFace,
  type World,
} from '../../helpers/e2e-world.js';

describe('a reload during a call rejoins it', { timeout: 120_000 }, () => {
  let world: World;
  let palId: string;
  const pages: Page[] = [];

  before(async () => {
    world = await startWorld();
    const faceId = await trainFace(world);
    palId = await createPal(world, { pal_name: 'Reload PAL', default_face_id: faceId, custom_greeting: 'Hello again.' });
  });
  after(async () => {
    for (const page of pages)
      await page
        .context()
        .close()
        .catch(() => undefined);
    await world?.close();
  });

  async function page(): Promise<Page> {
    const p = await openPage(world);
    pages.push(p);
    return p;
  }

  const startedIds = async (p: Page) =>
    (await palEvents(p)).filter((e) => e.type === 'pal-conversation-started').map((e) => e.detail.conversationId as string);
  const state = (p: Page, tag: string) =>
    p.evaluate((t) => (document.querySelector(t) as unknown as { state: string } | null)?.state ?? null, tag);
  const status = async (id: string) => (await world.api('GET', `/v2/conversations/${id}`)).body.status as string;

  it('pal-embed: the same conversation after a reload, the preview again once it was ended', async () => {
    const id = await createDeployment(world, { pal_id: palId, channel: 'embed', customization: { show_haircheck: false } });
    const p = await page();
    await p.goto(world.sitePage(`/reload-embed-${id}`, customerPage(world.serviceUrl, `<pal-embed deployment-id="${id}"></pal-embed>`)));
    await p.locator('pal-preview [part="start"]').click();
    await p.locator('pal-controls [part="end"]').waitFor();
    const [conversationId] = await startedIds(p);
    assert.ok(conversationId);

    await p.reload();
    // No click: the element goes straight back into the call.
    await p.locator('pal-controls [part="end"]').waitFor();
    assert.equal(await p.locator('pal-preview').count(), 0);
    assert.deepEqual(await startedIds(p), [conversationId], 'the same conversation, not a new one');
    assert.equal(await state(p, 'pal-embed'), 'connected');
    assert.equal(await status(conversationId!), 'active');
    // The PAL is still there: a typed message is answered in the rejoined room.
    await p.evaluate(() => (document.querySelector('pal-embed') as unknown as { sendChat(text: string): void }).sendChat('Still there?'));
    await eventually(
      () =>
        p.evaluate(() =>
          (window as any).__pal.messages.filter((m: any) => m.event_type === 'conversation.utterance').map((m: any) => m.properties.speech),
        ),
      (speech: string[]) => speech.includes('Still there?'),
      'the echo of the typed message',
    );
    assert.equal(
      (await world.api('GET', '/v2/conversations?status=active&limit=100')).body.data.filter(
        (c: { deployment_id: string }) => c.deployment_id === id,
      ).length,
      1,
    );

    await p.locator('pal-controls [part="end"]').click();
    await p.locator('pal-ended').waitFor();
    await eventually(
      () => status(conversationId!),
      (s) => s === 'ended',
      'the conversation to end',
    );
    await p.reload();
    await p.locator('pal-preview [part="start"]').waitFor();
    assert.deepEqual(await startedIds(p), []);
    assert.deepEqual(await palErrors(p), []);
  });

  it('pal-widget: the popup opens on the rejoined call; a second tab starts at the preview', async () => {
    const id = await createDeployment(world, { pal_id: palId, channel: 'widget', customization: { show_haircheck: false } });
    const url = world.sitePage(`/reload-widget-${id}`, customerPage(world.serviceUrl, `<pal-widget deployment-id="${id}"></pal-widget>`));
    const p = await page();
    await p.goto(url);
    await p.locator('pal-widget [part="launcher"]').click();
    await p.locator('pal-preview [part="start"]').click();
    await p.locator('pal-controls [part="end"]').waitFor();
    const [conversationId] = await startedIds(p);

    await p.reload();
    await p.locator('pal-controls [part="end"]').waitFor();
    assert.equal(await p.locator('pal-widget dialog[open]').count(), 1, 'the popup is open');
    assert.deepEqual(await startedIds(p), [conversationId]);

    // sessionStorage is per tab: another tab of the same site is not pulled into this call.
    const other = await p.context().newPage();
    await other.goto(url);
    await other.locator('pal-widget [part="launcher"]').waitFor();
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await other.locator('pal-widget dialog[open]').count(), 0, 'its popup stays closed');
    assert.equal(await state(other, 'pal-widget'), 'idle');
    await other.close();
    assert.equal(await state(p, 'pal-widget'), 'connected', 'the first tab keeps its call');
  });
});
