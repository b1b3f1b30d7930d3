// `npm run screenshots`: retakes the README's and docs' pictures of the demo, in Chromium.
// It starts the demo (what `npm start` serves, built first; its own port, an in-memory database), then
//   docs/widget-chat-{1366,390,320}.png  the widget with the chat open while the PAL speaks a reply: her face
//                                       above the chat, the AI disclosure banner between them;
//   docs/dark-{1366,390,320}.png         the product page's embed in the dark theme while she speaks, with
//                                       her caption;
//   docs/card-chat-{1366,390,320}.png    the widget with the chat open and a Magic Canvas question card pushed
//                                       into the call (the demo's operator route): her face keeps a third of
//                                       the call, the card and the chat share the rest;
//   docs/call-desktop.png, call-phone.png  her greeting: the product page's embed at 1366 px, the widget at 390;
//   docs/card-embed-{1366,390,320}.png   the calendar card she shows when asked to book, in the embed; and
//   docs/card-embed-390-dark.png         the same in the dark theme;
//   docs/theming-{light,dark}.png        the embed themed with the page CSS docs/embedding.md shows, the chat
//                                       open and the camera off;
//   docs/reconnecting-390.png            the call while it joins its room again: taken last, as the demo is
//                                       stopped under it.
// `npm run screenshots -- card-chat` retakes one set (the names above, without the width).
// The demo pages' Content-Security-Policy is bypassed only so that this script can poll the page.
// Look at them before committing: a picture taken while the machine was busy may show her between words.
import { chromium, type Browser, type Page } from 'playwright-core';
import { demoKeyOf, startDemo } from '../test/helpers/demo-process.js';
import { freePort } from '../test/helpers/process.js';

const WIDTHS = [1366, 390, 320] as const;
const HEIGHT: Record<(typeof WIDTHS)[number], number> = { 1366: 800, 390: 844, 320: 640 };
const QUESTION = 'Which frame size fits me if I am 180 cm tall?';

// The demo's data in memory, on a port of its own; its request log kept quiet.
const demo = await startDemo('memory', await freePort());
const base = demo.url;
/** This run's demo site key, which the demo's backend routes (the card push) ask for. */
const demoKey = demoKeyOf(demo);

/** The full element behind a script-tag shell, and the PAL's participant: is she speaking? */
const palSpeaking = (tag: string) => `(() => {
  const impl = document.querySelector('${tag}')?.shadowRoot?.querySelector('${tag}-impl');
  return impl?.session?.participants?.some((p) => p.role === 'pal' && p.speaking) === true;
})()`;

/** Clicks a button by its name inside the element's shadow roots (the Locator API pierces them). */
const press = (page: Page, name: string | RegExp) => page.getByRole('button', { name }).first().click();

async function intoCall(page: Page, tag: 'pal-widget' | 'pal-embed'): Promise<void> {
  if (tag === 'pal-widget') await page.locator('pal-widget').getByRole('button').first().click();
  await page.locator(`${tag} [part=start]`).click();
  await press(page, /join/i);
  await page.locator(tag).getByRole('toolbar').waitFor();
  // Headless Chromium has no speech recognition: the notice saying so is dismissed, as a visitor would.
  const dismiss = page.getByRole('button', { name: 'Dismiss' });
  if (await dismiss.count())
    await dismiss
      .first()
      .click()
      .catch(() => undefined);
}

/** Waits until the PAL has finished her greeting: she spoke, then was quiet for a second and a half. */
async function greeted(page: Page, tag: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  let spoke = false;
  let quietSince = Date.now();
  while (Date.now() < deadline) {
    if (await page.evaluate(palSpeaking(tag))) {
      spoke = true;
      quietSince = Date.now();
    } else if (spoke && Date.now() - quietSince > 1500) return;
    await page.waitForTimeout(100);
  }
  throw new Error(`${tag}: the PAL did not finish her greeting`);
}

/** Sends a question by chat and waits until the PAL is audibly answering it, a moment into her reply. */
async function askAndWaitForSpeech(page: Page, tag: string): Promise<void> {
  await greeted(page, tag);
  const box = page.getByRole('textbox').first();
  await box.fill(QUESTION);
  await box.press('Enter');
  await page.waitForFunction(palSpeaking(tag), undefined, { timeout: 30_000 });
  await page.waitForTimeout(700);
}

type Width = (typeof WIDTHS)[number];

/** A page of its own at this width (a context: no state carried from the last picture). */
async function pageAt(browser: Browser, width: Width, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: HEIGHT[width] },
    permissions: ['camera', 'microphone'],
    deviceScaleFactor: 1,
    colorScheme,
    bypassCSP: true,
  });
  return context.newPage();
}

async function widgetChat(browser: Browser, width: Width): Promise<void> {
  const page = await pageAt(browser, width);
  await page.goto(`${base}/demo/widget.html`);
  await intoCall(page, 'pal-widget');
  await press(page, 'Chat');
  await askAndWaitForSpeech(page, 'pal-widget');
  await page.screenshot({ path: `docs/widget-chat-${width}.png` });
  await page.context().close();
}

async function darkEmbed(browser: Browser, width: Width): Promise<void> {
  const page = await pageAt(browser, width, 'dark');
  await page.goto(`${base}/demo/product.html`);
  await page.evaluate(`document.querySelector('pal-embed').setAttribute('override-config', JSON.stringify({ theme: 'dark' }))`);
  await intoCall(page, 'pal-embed');
  // The question goes by the element's method: the chat stays closed so that her caption shows.
  await greeted(page, 'pal-embed');
  await page.evaluate(`document.querySelector('pal-embed').sendChat(${JSON.stringify(QUESTION)})`);
  await page.waitForFunction(palSpeaking('pal-embed'), undefined, { timeout: 30_000 });
  await page.waitForTimeout(1200);
  await page.locator('pal-embed').screenshot({ path: `docs/dark-${width}.png` });
  await page.context().close();
}

const QUESTION_CARD = {
  question: 'Which kind of riding do you do most?',
  options: [
    { id: 'trail', label: 'Trail' },
    { id: 'road', label: 'Road' },
    { id: 'city', label: 'City' },
    { id: 'gravel', label: 'Gravel' },
  ],
};

async function cardChat(browser: Browser, width: Width): Promise<void> {
  const page = await pageAt(browser, width);
  await page.goto(`${base}/demo/widget.html?demo_key=${demoKey}`);
  await intoCall(page, 'pal-widget');
  await press(page, 'Chat');
  await askAndWaitForSpeech(page, 'pal-widget');
  const conversationId = await page.evaluate(
    `document.querySelector('pal-widget').shadowRoot.querySelector('pal-widget-impl').session.conversation.conversation_id`,
  );
  const message = {
    message_type: 'conversation',
    event_type: 'conversation.tool_call',
    properties: { name: 'canvas_show_question', arguments: JSON.stringify(QUESTION_CARD), tool_call_id: 'shot' },
  };
  const pushed = await page.evaluate(
    `fetch('/demo/api/push', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(JSON.stringify({ conversation_id: '__ID__', message }))}.replace('__ID__', ${JSON.stringify(conversationId)}) }).then((r) => r.status)`,
  );
  if (pushed !== 200) throw new Error(`the card push answered ${pushed}`);
  await page.locator('pal-widget [part=card]').waitFor();
  await page.waitForTimeout(600);
  await page.screenshot({ path: `docs/card-chat-${width}.png` });
  await page.context().close();
}

/** Waits until she introduces herself (after the AI disclosure she says first), a moment into it. */
async function greeting(page: Page, tag: string): Promise<void> {
  await page.locator(`${tag} [part=captions]`).getByText(/Hello/).first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1500);
}

/** Her greeting: the product page's embed at 1366 px (call-desktop), the widget at 390 (call-phone). */
async function call(browser: Browser, width: Width): Promise<void> {
  if (width === 320) return;
  const page = await pageAt(browser, width);
  const tag = width === 1366 ? 'pal-embed' : 'pal-widget';
  await page.goto(`${base}/demo/${width === 1366 ? 'product' : 'widget'}.html`);
  await intoCall(page, tag);
  await greeting(page, tag);
  await page.screenshot({ path: `docs/call-${width === 1366 ? 'desktop' : 'phone'}.png` });
  await page.context().close();
}

/** The embed on the product page, scrolled into view, in a call where she has greeted the visitor. */
async function embedInCall(browser: Browser, width: Width, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await pageAt(browser, width, colorScheme);
  await page.goto(`${base}/demo/product.html`);
  if (colorScheme === 'dark')
    await page.evaluate(`document.querySelector('pal-embed').setAttribute('override-config', JSON.stringify({ theme: 'dark' }))`);
  await intoCall(page, 'pal-embed');
  await greeted(page, 'pal-embed');
  return page;
}

/** The calendar card she puts up when the visitor asks to book, while she says so. */
async function cardEmbed(browser: Browser, width: Width): Promise<void> {
  for (const scheme of width === 390 ? (['light', 'dark'] as const) : (['light'] as const)) {
    const page = await embedInCall(browser, width, scheme);
    await page.evaluate(`document.querySelector('pal-embed').sendChat('Can I book a test ride?')`);
    await page.locator('pal-embed [part=card]').waitFor({ timeout: 30_000 });
    await page.waitForFunction(palSpeaking('pal-embed'), undefined, { timeout: 30_000 });
    await page.waitForTimeout(1200);
    if (width !== 1366) await page.evaluate(`document.querySelector('pal-embed').scrollIntoView({ block: 'start' })`);
    await page.screenshot({ path: `docs/card-embed-${width}${scheme === 'dark' ? '-dark' : ''}.png` });
    await page.context().close();
  }
}

// docs/embedding.md's example of page CSS on the element (tokens and parts), and its dark variant.
const THEMES = {
  light: `pal-embed { --pal-accent: #c2410c; --pal-color-surface: #fff7ed; --pal-color-text: #431407; --pal-radius: 22px; --pal-font: Georgia, serif; }
    pal-embed::part(base) { box-shadow: 0 0 0 4px #fdba74; }
    pal-embed::part(controls) { background: #ffedd5; }`,
  dark: `pal-embed { --pal-accent: #fb923c; --pal-radius: 22px; --pal-font: Georgia, serif; }
    pal-embed::part(base) { box-shadow: 0 0 0 4px #9a3412; }`,
};

/** The themed embed with the chat open and the camera off, light and dark (the desktop width only). */
async function theming(browser: Browser, width: Width): Promise<void> {
  if (width !== 1366) return;
  for (const scheme of ['light', 'dark'] as const) {
    const page = await embedInCall(browser, width, scheme);
    await page.addStyleTag({ content: THEMES[scheme] });
    await page.getByRole('button', { name: 'Camera', exact: true }).click();
    await press(page, 'Chat');
    await page.waitForTimeout(600);
    await page.locator('pal-embed').screenshot({ path: `docs/theming-${scheme}.png` });
    await page.context().close();
  }
}

/** The call at 390 px while it joins its room again: the demo is stopped under it (so this set comes last). */
async function reconnecting(browser: Browser, width: Width): Promise<void> {
  if (width !== 390) return;
  const page = await embedInCall(browser, width);
  await demo.stop();
  await page.getByText('Reconnecting to the conversation').waitFor({ timeout: 15_000 });
  await page.evaluate(`document.querySelector('pal-embed').scrollIntoView({ block: 'start' })`);
  await page.screenshot({ path: `docs/reconnecting-${width}.png` });
  await page.context().close();
}

const only = process.argv[2];
const browser = await chromium.launch({
  executablePath: process.env.PALKIT_CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  args: [
    '--no-sandbox',
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    '--autoplay-policy=no-user-gesture-required',
  ],
});
try {
  const sets = { 'widget-chat': widgetChat, dark: darkEmbed, 'card-chat': cardChat, call, 'card-embed': cardEmbed, theming, reconnecting };
  for (const [name, take] of Object.entries(sets)) {
    if (only && only !== name) continue;
    for (const width of WIDTHS) await take(browser, width);
    console.log(`docs: ${name} retaken`);
  }
} finally {
  await browser.close();
  await demo.stop();
}
