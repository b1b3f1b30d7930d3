// End to end, in Chromium against the service process: a customer page on another origin with only the
// script tag and an element walks launcher → preview → captcha and password → device check → joined local
// room → end → after-call screen (widget, embed, and the hosted landing page); a wrong password, a refused
// origin, an inactive deployment and an exhausted limit each show their own screen and `pal-error` code.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import {
  GOOD_TOKEN,
  SITE_KEY,
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

const PASSWORD = 'open sesame';
const AFTER_CALL = { title: 'Thanks for stopping by', description: 'We will follow up by email.' };

describe('deployment flows in Chromium (script tag on another origin)', { timeout: 150_000 }, () => {
  let world: World;
  let palId: string;
  const pages: Page[] = [];

  before(async () => {
    world = await startWorld();
    const faceId = await trainFace(world);
    palId = await createPal(world, { pal_name: 'Flow PAL', default_face_id: faceId, custom_greeting: 'Welcome to the flow test.' });
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

  const deployment = (channel: 'widget' | 'embed' | 'landing-page', body: Record<string, unknown> = {}, status?: 'active' | 'inactive') =>
    createDeployment(world, { pal_id: palId, channel, name: `${channel} e2e`, ...body }, status);

  /** The protected deployment every happy path uses: password, captcha, this site's origin only. */
  const guarded = (channel: 'widget' | 'embed' | 'landing-page') =>
    deployment(channel, {
      password: PASSWORD,
      limits: { captcha_enabled: true, participant_left_timeout: 0 },
      allowed_origins: [world.siteOrigin],
      customization: { after_call: AFTER_CALL, preview: { title: `Talk to the ${channel}` } },
    });

  const elementState = (p: Page, tag: string) =>
    p.evaluate((t) => (document.querySelector(t) as unknown as { state: string; mode: string } | null)?.state ?? null, tag);

  /** From the preview to the after-call screen; `tag` is the element the page placed. */
  async function walkFromPreview(p: Page, tag: string, previewTitle: string): Promise<string> {
    await p.locator('pal-preview h2').filter({ hasText: previewTitle }).waitFor();
    await p.locator('pal-preview [part="start"]').click();

    // The password step: Cloudflare's challenge (the stand-in) renders above the field; the password and
    // the challenge's token are checked together at once, the captcha first.
    const check = p.locator('pal-gate .turnstile-standin input');
    await check.waitFor();
    assert.match(await p.locator('pal-gate .turnstile-standin').innerText(), new RegExp(SITE_KEY));
    const verifiedBefore = world.siteverify.forms.length;
    await check.click();
    const password = p.locator('pal-gate input[name="password"]');
    await password.fill(PASSWORD);
    await p.locator('pal-gate button[type="submit"]').click();

    // Device check, then the call, whose code arrived while the visitor was on the preview, gate and device check.
    await p.locator('pal-haircheck [part="join"]').waitFor();
    await eventually(
      () => p.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name)),
      (urls: string[]) => ['call', 'transports'].every((chunk) => urls.some((u) => new RegExp(`/chunks/${chunk}-[\\w-]+\\.js$`).test(u))),
      "the call's chunks before join",
    );
    assert.ok(
      !(await p.evaluate(() => performance.getEntriesByType('resource').some((e) => /daily-esm/.test(e.name)))),
      'daily-js is not fetched for a local room',
    );
    await p.locator('pal-haircheck [part="join"]').click();
    await p.locator('pal-conversation pal-controls [part="end"]').waitFor();
    assert.equal(await elementState(p, tag), 'connected');
    assert.equal(world.siteverify.forms.length, verifiedBefore + 1, 'the service verified the token once');
    assert.equal(world.siteverify.forms.at(-1)!.get('response'), GOOD_TOKEN);

    const started = (await palEvents(p)).find((e) => e.type === 'pal-conversation-started');
    assert.ok(started, 'pal-conversation-started fired');
    const conversationId = started.detail.conversationId as string;
    const conversation = await world.api('GET', `/v2/conversations/${conversationId}`);
    assert.equal(conversation.body.status, 'active');
    assert.equal(conversation.body.pal_id, palId);
    // Joined the local room: the PAL's greeting came over the WebSocket.
    await eventually(
      () => p.evaluate(() => (window as any).__pal.messages.map((m: any) => m.properties?.speech)),
      (speech: string[]) => speech.includes('Welcome to the flow test.'),
      'the greeting',
    );

    await p.locator('pal-controls [part="end"]').click();
    const ended = p.locator('pal-ended');
    await ended.locator('h2').filter({ hasText: AFTER_CALL.title }).waitFor();
    assert.equal(await ended.locator('p').innerText(), AFTER_CALL.description);
    assert.equal(await elementState(p, tag), 'ended');
    assert.ok((await palEvents(p)).some((e) => e.type === 'pal-conversation-ended' && e.detail.conversationId === conversationId));
    assert.deepEqual(await palErrors(p), []);
    // The visitor left; with participant_left_timeout 0 the room ends at once.
    await eventually(
      () => world.api('GET', `/v2/conversations/${conversationId}`),
      (r) => r.body.status === 'ended',
      'the conversation to end',
    );
    return conversationId;
  }

  it('pal-widget: launcher → preview → captcha and password → device check → call → end → after-call screen', async () => {
    const id = await guarded('widget');
    const p = await page();
    await p.goto(world.sitePage(`/widget-${id}`, customerPage(world.serviceUrl, `<pal-widget deployment-id="${id}"></pal-widget>`)));
    assert.notEqual(new URL(p.url()).origin, new URL(world.serviceUrl).origin);
    const launcher = p.locator('pal-widget [part="launcher"]');
    await launcher.click();
    await p.locator('pal-widget dialog[part="panel"]').waitFor();
    await walkFromPreview(p, 'pal-widget', 'Talk to the widget');
  });

  it('pal-embed: preview → captcha and password → device check → call → end → after-call screen', async () => {
    const id = await guarded('embed');
    const p = await page();
    const inits: string[] = [];
    p.on('request', (r) => void (r.url().endsWith(`/v2/deployments/${id}/init`) && inits.push(r.url())));
    await p.goto(
      world.sitePage(
        `/embed-${id}`,
        customerPage(world.serviceUrl, `<div style="width:960px;height:600px"><pal-embed deployment-id="${id}"></pal-embed></div>`),
      ),
    );
    await walkFromPreview(p, 'pal-embed', 'Talk to the embed');
    assert.equal(inits.length, 1, "the full element reused the init the script tag's shell fetched");
  });

  it('landing page at /d/{id}: preview → captcha and password → device check → call → end → after-call screen', async () => {
    const id = await guarded('landing-page');
    const p = await page();
    await p.goto(`${world.serviceUrl}/d/${id}`);
    await walkFromPreview(p, 'pal-landing', 'Talk to the landing-page');
  });

  it('a wrong password stays on the gate with its message and pal-error invalid_password; the right one goes on', async () => {
    const id = await deployment('widget', { password: PASSWORD, customization: { show_haircheck: false } });
    const p = await page();
    await p.goto(world.sitePage(`/wrong-${id}`, customerPage(world.serviceUrl, `<pal-widget deployment-id="${id}" open></pal-widget>`)));
    await p.locator('pal-preview [part="start"]').click();
    await p.locator('pal-gate input[name="password"]').fill('not the password');
    await p.locator('pal-gate button[type="submit"]').click();
    const alert = p.locator('pal-gate #gate-error');
    await alert.filter({ hasText: 'That password is not right' }).waitFor();
    assert.equal(await p.locator('pal-gate input[name="password"]').getAttribute('aria-invalid'), 'true');
    assert.deepEqual(await palErrors(p), ['invalid_password']);
    assert.equal(await p.locator('pal-conversation').count(), 0);

    await p.locator('pal-gate input[name="password"]').fill(PASSWORD);
    await p.locator('pal-gate button[type="submit"]').click();
    await p.locator('pal-controls [part="end"]').waitFor();
    await p.locator('pal-controls [part="end"]').click();
    await p.locator('pal-ended').waitFor();
  });

  it('a locked-out address sees the lockout message on the gate and pal-error too_many_attempts', async () => {
    const id = await deployment('widget', { password: PASSWORD, customization: { show_haircheck: false } });
    // Somebody at this address (loopback, like the browser) guessed until the service locked it out.
    let last = 0;
    for (let i = 0; i < 8; i++)
      last = (
        await world.api('POST', `/v2/deployments/${id}/start`, { password: `guess ${i}` }, { 'x-api-key': '', origin: world.siteOrigin })
      ).status;
    assert.equal(last, 403, 'the guess that locks is still answered invalid_password');
    const p = await page();
    await p.goto(world.sitePage(`/locked-${id}`, customerPage(world.serviceUrl, `<pal-widget deployment-id="${id}" open></pal-widget>`)));
    await p.locator('pal-preview [part="start"]').click();
    // Even the right password is refused now, with a message that says to wait rather than retype.
    await p.locator('pal-gate input[name="password"]').fill(PASSWORD);
    await p.locator('pal-gate button[type="submit"]').click();
    await p.locator('pal-gate #gate-error').filter({ hasText: 'Too many attempts' }).waitFor();
    assert.deepEqual(await palErrors(p), ['too_many_attempts']);
    assert.equal(await p.locator('pal-conversation').count(), 0);
  });

  it('a failed captcha stays on the gate with its message and pal-error captcha_failed; a good token goes on', async () => {
    const id = await deployment('embed', { limits: { captcha_enabled: true }, customization: { show_haircheck: false } });
    const p = await page();
    await p.goto(world.sitePage(`/captcha-${id}`, customerPage(world.serviceUrl, `<pal-embed deployment-id="${id}"></pal-embed>`)));
    await p.evaluate(() => ((window as any).__turnstileToken = 'forged-token'));
    await p.locator('pal-preview [part="start"]').click();
    const verifiedBefore = world.siteverify.forms.length;
    await p.locator('pal-gate .turnstile-standin input').click();
    await p.locator('pal-gate [role="alert"]').filter({ hasText: 'The check did not pass' }).waitFor();
    assert.equal(world.siteverify.forms.at(-1)!.get('response'), 'forged-token', 'the service asked Cloudflare about the forged token');
    assert.equal(world.siteverify.forms.length, verifiedBefore + 1);
    assert.deepEqual(await palErrors(p), ['captcha_failed']);
    assert.equal(await p.locator('pal-conversation').count(), 0);

    // The widget is rendered afresh for a new token; a real one gets the visitor in.
    await p.evaluate(() => delete (window as any).__turnstileToken);
    await p.locator('pal-gate .turnstile-standin input').click();
    await p.locator('pal-controls [part="end"]').waitFor();
    assert.equal(world.siteverify.forms.at(-1)!.get('response'), GOOD_TOKEN);
    await p.locator('pal-controls [part="end"]').click();
    await p.locator('pal-ended').waitFor();
  });

  it('a refused origin shows the error screen at load, without a retry, and pal-error origin_not_allowed', async () => {
    const id = await deployment('embed', { allowed_origins: ['https://shop.example'] });
    const p = await page();
    await p.goto(world.sitePage(`/refused-${id}`, customerPage(world.serviceUrl, `<pal-embed deployment-id="${id}"></pal-embed>`)));
    // The page may not load the element at all: init answers origin_not_allowed, before any click.
    const screen = p.locator('pal-error-screen');
    await screen.locator('[role="alert"]').filter({ hasText: 'cannot be started from this website' }).waitFor();
    assert.equal(await screen.locator('[part="retry"]').count(), 0, 'retrying cannot help');
    assert.deepEqual(await palErrors(p), ['origin_not_allowed']);
  });

  it('an inactive deployment shows the unavailable screen and pal-error deployment_inactive', async () => {
    const id = await deployment('embed', {}, 'inactive');
    const p = await page();
    await p.goto(world.sitePage(`/inactive-${id}`, customerPage(world.serviceUrl, `<pal-embed deployment-id="${id}"></pal-embed>`)));
    await p.locator('pal-unavailable [role="status"]').filter({ hasText: 'not open at the moment' }).waitFor();
    assert.equal(await p.locator('pal-preview').count(), 0);
    await eventually(
      () => palErrors(p),
      (codes) => codes.length > 0,
      'pal-error',
    );
    assert.deepEqual(await palErrors(p), ['deployment_inactive']);
  });

  it('an exhausted limit refuses the start with the unavailable screen and pal-error total_limit', async () => {
    const id = await deployment('widget', { limits: { total_call_limit: 1 }, customization: { show_haircheck: false } });
    const p = await page();
    await p.goto(world.sitePage(`/limit-${id}`, customerPage(world.serviceUrl, `<pal-widget deployment-id="${id}" open></pal-widget>`)));
    await p.locator('pal-preview [part="start"]').waitFor();
    // Somebody else takes the last call while this visitor reads the preview.
    const other = await world.api('POST', `/v2/deployments/${id}/start`, {}, { 'x-api-key': '', origin: world.siteOrigin });
    assert.equal(other.status, 200, JSON.stringify(other.body));
    await p.locator('pal-preview [part="start"]').click();
    await p.locator('pal-unavailable [role="status"]').filter({ hasText: 'reached its limit' }).waitFor();
    assert.equal(await p.locator('pal-unavailable [part="retry"]').count(), 0);
    assert.deepEqual(await palErrors(p), ['total_limit']);
    // A page loaded now learns it from init (this page opens the popup at load).
    const later = await page();
    await later.goto(p.url());
    await later.locator('pal-unavailable [role="status"]').filter({ hasText: 'reached its limit' }).waitFor();
    await eventually(
      () => palErrors(later),
      (codes) => codes.length > 0,
      'pal-error',
    );
    assert.deepEqual(await palErrors(later), ['total_limit']);
  });
});
