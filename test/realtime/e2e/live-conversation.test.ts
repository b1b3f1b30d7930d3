// End to end, in Chromium against the service process: a visitor joins through pal-widget on a customer
// page; the AI disclosure (banner and spoken) appears for an `always` PAL and not for an `off` one; the
// greeting streams into the captions and the transcript; a typed message gets the echo PAL's reply; the
// seven Magic Canvas cards pushed into the room render, and each interaction reaches the interactions
// endpoint and the deployment's callback receiver; ending the call delivers system.shutdown and
// application.transcription_ready with the turns in order. A spoken question (the browser's speech
// recognition; a stand-in, as Chromium's needs Google's service) gets the PAL's answer.
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

const GREETING = 'Hello, I am the canvas test PAL and this greeting streams word by word into your captions.';
const VISUAL = 'Heads up: this assistant is an AI, not a person.';
const VERBAL = 'Before we begin, please know that I am an AI assistant.';
const TYPED = 'Can you repeat this sentence back to me?';
const EVENT_URI = 'https://api.calendly.com/scheduled_events/E2E-EVENT';
const INVITEE_URI = 'https://api.calendly.com/scheduled_events/E2E-EVENT/invitees/E2E-INVITEE';

// Calendly's booking page as the scheduling card's iframe loads it; a booking posts Calendly's message to the parent.
// The button is made by the script that listens to it, so that it is never there to click before its listener.
const calendlyStandIn = `<!doctype html><html><body><h1>Book a call</h1>
<script>const book = Object.assign(document.createElement('button'), { id: 'book', textContent: 'Confirm booking' });
book.addEventListener('click', () => parent.postMessage({ event: 'calendly.event_scheduled',
  payload: { event: { uri: ${JSON.stringify(EVENT_URI)} }, invitee: { uri: ${JSON.stringify(INVITEE_URI)} } } }, '*'));
document.body.append(book);</script></body></html>`;

describe('live conversation in Chromium through pal-widget', { timeout: 150_000 }, () => {
  let world: World;
  let faceId: string;
  const pages: Page[] = [];

  before(async () => {
    world = await startWorld();
    faceId = await trainFace(world);
  });
  after(async () => {
    for (const page of pages)
      await page
        .context()
        .close()
        .catch(() => undefined);
    await world?.close();
  });

  /** Joins a widget deployment of a new PAL with `disclosure_type`; returns the page and conversation id. */
  async function join(
    disclosure: 'always' | 'off',
    prepare?: (page: Page) => Promise<void>,
  ): Promise<{ page: Page; conversationId: string }> {
    const palId = await createPal(world, {
      pal_name: `Canvas PAL (${disclosure})`,
      default_face_id: faceId,
      custom_greeting: GREETING,
      disclosure_type: disclosure,
      visual_disclosure: VISUAL,
      verbal_disclosure: VERBAL,
    });
    const id = await createDeployment(world, {
      pal_id: palId,
      channel: 'widget',
      allowed_origins: [world.siteOrigin],
      callback_url: `${world.receiver.url}/callbacks`,
      limits: { participant_left_timeout: 0 },
      customization: { show_haircheck: false },
    });
    const page = await openPage(world);
    pages.push(page);
    await page
      .context()
      .route('https://calendly.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: calendlyStandIn }));
    await prepare?.(page);
    await page.goto(
      world.sitePage(`/live-${id}`, customerPage(world.serviceUrl, `<pal-widget deployment-id="${id}" user-name="Dana"></pal-widget>`)),
    );
    await page.locator('pal-widget [part="launcher"]').click();
    await page.locator('pal-preview [part="start"]').click();
    await page.locator('pal-controls [part="end"]').waitFor();
    const started = (await palEvents(page)).find((e) => e.type === 'pal-conversation-started');
    assert.ok(started);
    return { page, conversationId: started.detail.conversationId };
  }

  const messages = (page: Page): Promise<any[]> => page.evaluate(() => (window as any).__pal.messages);
  const panelRows = (page: Page) =>
    page
      .locator('pal-transcript[mode="panel"] li')
      .evaluateAll((rows) =>
        rows.map((r) => `${r.classList.contains('user') ? 'user' : 'replica'}: ${r.querySelector('.bubble')?.textContent?.trim()}`),
      );
  const callbacksOf = (conversationId: string) =>
    world.receiver.received.map((r) => r.body).filter((b) => b.conversation_id === conversationId);

  async function push(conversationId: string, name: string, args: Record<string, unknown>, toolCallId: string): Promise<void> {
    const r = await world.api('POST', `/v2/conversations/${conversationId}/events`, {
      message_type: 'conversation',
      event_type: 'conversation.tool_call',
      properties: { name, arguments: JSON.stringify(args), tool_call_id: toolCallId },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }

  it('an `always` PAL: disclosure, streamed greeting, echo, seven canvas cards, end callbacks with the turns in order', async () => {
    const { page, conversationId } = await join('always');

    // The banner shows the visual disclosure from `delivering` on; dismissible once the verbal one was spoken.
    const banner = page.locator('pal-disclosure [part="banner"]');
    await banner.waitFor();
    assert.equal(await page.locator('pal-disclosure [part="text"]').innerText(), VISUAL);
    await page.locator('pal-disclosure [part="dismiss"]').waitFor();

    // The greeting streams: growing partials, then the final one, into the captions.
    const captions = page.locator('pal-transcript[mode="captions"] [part="captions"] .caption-text');
    await captions.filter({ hasText: GREETING }).waitFor();
    // The caption can be whole before the partial marked final has arrived.
    const greetingParts = (all: any[]) =>
      all.filter((m) => m.event_type === 'conversation.utterance.streaming' && GREETING.startsWith(m.properties.speech));
    const partials = greetingParts(
      await eventually(
        () => messages(page),
        (all) => greetingParts(all).some((m) => m.properties.final === true),
        'the final partial of the greeting',
      ),
    );
    assert.ok(partials.length >= 3, `streamed in parts (${partials.length})`);
    assert.ok(
      partials.slice(1).every((m, i) => m.properties.speech.length >= partials[i].properties.speech.length),
      'each partial grows',
    );
    assert.deepEqual(
      partials.map((m) => m.properties.final),
      [...Array(partials.length - 1).fill(false), true],
    );
    assert.equal(partials.at(-1).properties.speech, GREETING);

    // The transcript (chat panel): the verbal disclosure, then the greeting; a typed line gets the echo.
    await page.locator('pal-controls button[aria-label="Chat"]').click();
    await eventually(
      () => panelRows(page),
      (rows) => rows.length >= 2,
      'greeting in the transcript',
    );
    assert.deepEqual(await panelRows(page), [`replica: ${VERBAL}`, `replica: ${GREETING}`]);
    await page.locator('pal-transcript[mode="panel"] form[part="chat"] input').fill(TYPED);
    await page.locator('pal-transcript[mode="panel"] form[part="chat"] input').press('Enter');
    // The reply's row appears with its first words and fills as they are heard.
    await eventually(
      () => panelRows(page),
      (rows) => rows.length >= 4 && rows[3] === `replica: ${TYPED}`,
      'the whole echo',
    );
    assert.deepEqual((await panelRows(page)).slice(2), [`user: ${TYPED}`, `replica: ${TYPED}`]);

    // Magic Canvas: each card is pushed into the room, rendered, used, and its interaction recorded.
    const card = page.locator('pal-canvas [part="card"]');
    /** Waits for this part of the new card; where the call is short and the chat open the card comes as a chip, opened as a visitor would. */
    const shown = async (part: ReturnType<typeof card.locator>) => {
      const chip = card.locator('.chip-open');
      await part.or(chip).first().waitFor();
      // The chip names the card too: it is opened first, then the part waited for inside the whole card.
      if (await chip.isVisible()) await chip.click();
      await part.waitFor();
    };
    const expected: Array<{ tool: string; component: string; type: string; value: Record<string, unknown>; ack: string }> = [];
    const interactions = async () => (await world.api('GET', `/v2/conversations/${conversationId}/canvas/interactions`)).body.data as any[];
    /** Waits until the interaction is listed and the PAL has answered it, so its canvas_clear cannot hit the next card. */
    const count = (list: unknown[], item: string) => list.filter((x) => x === item).length;
    const recorded = async (entry: (typeof expected)[number]) => {
      expected.push(entry);
      await eventually(interactions, (list) => list.length === expected.length, `${entry.component} ${entry.type} recorded`);
      await eventually(
        async () =>
          (await messages(page))
            .filter((m) => m.event_type === 'conversation.utterance' || m.event_type === 'conversation.tool_call')
            .map((m) => m.properties.speech ?? m.properties.name),
        // The same answer can come more than once ("Okay."): wait until this one has been said too.
        (list) =>
          count(list, entry.ack) >=
          count(
            expected.map((e) => e.ack),
            entry.ack,
          ),
        `the PAL's answer to ${entry.component}`,
      );
    };

    await push(
      conversationId,
      'canvas_show_question',
      {
        question: 'Which plan fits you?',
        options: [
          { id: 'starter', label: 'Starter' },
          { id: 'team', label: 'Team' },
          { id: 'scale', label: 'Scale' },
        ],
      },
      'call_question1',
    );
    await shown(card.locator('legend').filter({ hasText: 'Which plan fits you?' }));
    await card.locator('label.choice').filter({ hasText: 'Team' }).click();
    await card.locator('button[type="submit"]').click();
    await recorded({
      tool: 'call_question1',
      component: 'canvas.question',
      type: 'submit',
      value: { selected_option_ids: ['team'], skipped: false },
      ack: 'Thanks, you chose Team.',
    });
    assert.equal(await card.count(), 0, 'a submitted card leaves');

    await push(
      conversationId,
      'canvas_show_input',
      { prompt: 'Your work email?', input_type: 'email', required: true, layout: { preferred_slot: 'safe-area-left' } },
      'call_input1',
    );
    // An untitled input card is headed by its prompt (its label stays for screen readers).
    await shown(card.getByText('Your work email?').first());
    assert.equal(await card.getByRole('textbox', { name: 'Your work email?' }).count(), 1, 'the field is named by its prompt');
    assert.equal(await page.locator('pal-canvas').getAttribute('card-side'), 'left');
    await card.locator('input').fill('dana@example.com');
    await card.locator('input').press('Enter');
    await recorded({
      tool: 'call_input1',
      component: 'canvas.input',
      type: 'submit',
      value: { value: 'dana@example.com' },
      ack: "Thanks, I've noted dana@example.com.",
    });

    await push(
      conversationId,
      'canvas_show_calendar',
      {
        title: 'Pick a day',
        mode: 'date_picker',
        initial_year: 2030,
        initial_month: 5,
        available_dates: ['2030-05-14', '2030-05-15'],
      },
      'call_calendar1',
    );
    await shown(card.locator('h2').filter({ hasText: 'Pick a day' }));
    assert.equal(await card.locator('button[data-date="2030-05-13"]').isDisabled(), true, 'only the available dates');
    await card.locator('button[data-date="2030-05-14"]').click();
    await card.locator('button[type="submit"]').click();
    await recorded({
      tool: 'call_calendar1',
      component: 'canvas.calendar',
      type: 'submit',
      value: { selected_date: '2030-05-14' },
      ack: 'Great, Tuesday, May 14 it is.',
    }); // the date said in words, as the PAL speaks it

    await push(
      conversationId,
      'canvas_show_scheduling_embed',
      { provider: 'calendly', scheduling_url: 'https://calendly.com/palkit-e2e/intro', title: 'Book an intro' },
      'call_schedule1',
    );
    await shown(card.locator('iframe.scheduling'));
    assert.match(
      (await card.locator('iframe.scheduling').getAttribute('src'))!,
      /^https:\/\/calendly\.com\/palkit-e2e\/intro\?embed_domain=127\.0\.0\.1&embed_type=Inline$/,
    );
    // What the page hears from the booking page, for the failure's message (this step failed now and then in CI
    // runs, once on both tries, and never in runs of this file alone).
    await page.evaluate(() => {
      const heard: string[] = ((window as any).__bookingMessages = []);
      window.addEventListener('message', (e) => heard.push(`${e.origin} ${JSON.stringify(e.data).slice(0, 80)}`));
    });
    // Clicked once the card stands still: Playwright waits for the button to be stable within its frame, not
    // for the frame to be. A click made while the card slid in (card-in, 8 px over 180 ms) could land beside
    // the button, and the booking page then posted nothing (the failures above: the page heard nothing at all).
    await card.evaluate((element) => Promise.all(element.getAnimations().map((a) => a.finished)));
    await card.locator('iframe.scheduling').click({ trial: true });
    await page.frameLocator('pal-canvas iframe.scheduling').locator('#book').click();
    try {
      await recorded({
        tool: 'call_schedule1',
        component: 'canvas.scheduling_embed',
        type: 'submit',
        value: { event_uri: EVENT_URI, invitee_uri: INVITEE_URI },
        ack: 'Your booking is confirmed. Thanks!',
      });
    } catch (error) {
      const seen = await page
        .evaluate(() => ({ messages: (window as any).__bookingMessages as string[] }))
        .catch((e: Error) => ({ messages: [e.message] }));
      const cardText = await card.innerText().catch(() => '(no card)');
      throw new Error(
        `${(error as Error).message}\nthe page heard: ${JSON.stringify(seen.messages)}; the card: ${JSON.stringify(cardText.slice(0, 200))}; iframes in the card: ${await card
          .locator('iframe')
          .count()
          .catch(() => -1)}`,
      );
    }

    await push(
      conversationId,
      'canvas_show_text',
      { title: 'Our pricing', body: '**Team** costs 20 EUR per seat.\n\n- monthly\n- cancel any time', format: 'markdown' },
      'call_text1',
    );
    await shown(card.locator('h2').filter({ hasText: 'Our pricing' }));
    assert.equal(await card.locator('.prose strong').innerText(), 'Team');
    assert.equal(await card.locator('.prose li').count(), 2);
    await card.locator('button.close').click();
    await recorded({ tool: 'call_text1', component: 'canvas.text', type: 'dismiss', value: {}, ack: 'Okay.' });

    await push(
      conversationId,
      'canvas_show_chart',
      {
        title: 'Seats per plan',
        chart_type: 'bar',
        data: [
          { label: 'Starter', value: 5 },
          { label: 'Team', value: 20 },
          { label: 'Scale', value: 80 },
        ],
      },
      'call_chart1',
    );
    await shown(card.locator('h2').filter({ hasText: 'Seats per plan' }));
    assert.equal(await card.locator('svg rect.bar').count(), 3);
    await card.locator('button.close').click();
    await recorded({ tool: 'call_chart1', component: 'canvas.chart', type: 'dismiss', value: {}, ack: 'Okay.' });

    await push(
      conversationId,
      'canvas_show_alert',
      { severity: 'warning', title: 'Heads up', body: 'The offer ends on Friday.' },
      'call_alert1',
    );
    await shown(card.locator('h2').filter({ hasText: 'Heads up' }));
    assert.match(await card.locator('.alert p').innerText(), /The offer ends on Friday\./);
    await card.locator('button.close').click();
    await recorded({ tool: 'call_alert1', component: 'canvas.alert', type: 'dismiss', value: {}, ack: 'Okay.' });

    // The endpoint lists them in order, each with the component's value; the receiver got each as canvas.interaction.
    const listed = await interactions();
    assert.deepEqual(
      listed.map((i) => [i.tool_call_id, i.component, i.type, i.value]),
      expected.map((e) => [e.tool, e.component, e.type, e.value]),
    );
    for (const i of listed) assert.match(i.interaction_id, new RegExp(`^ci_${i.tool_call_id}_${i.type}_[0-9a-f-]{36}$`));
    const canvasCallbacks = await eventually(
      async () => callbacksOf(conversationId).filter((b) => b.event_type === 'canvas.interaction'),
      (list) => list.length >= expected.length,
      'canvas.interaction callbacks',
    );
    assert.deepEqual(
      canvasCallbacks.map((b) => [
        b.message_type,
        b.properties.tool_call_id,
        b.properties.component,
        b.properties.type,
        b.properties.value,
      ]),
      expected.map((e) => ['canvas', e.tool, e.component, e.type, e.value]),
    );
    // The page heard each one as pal-canvas-interaction too.
    const pageInteractions = await eventually(
      () => page.evaluate(() => (window as any).__pal.interactions.map((i: any) => i.interaction_id) as string[]),
      (ids) => ids.length >= listed.length,
      'pal-canvas-interaction for each',
    );
    assert.deepEqual(
      pageInteractions,
      listed.map((i) => i.interaction_id),
    );

    // End: the after-call screen, then the room's end callbacks with the whole conversation in order.
    await page.locator('pal-controls [part="end"]').click();
    await page.locator('pal-ended').waitFor();
    const ending = await eventually(
      async () => callbacksOf(conversationId),
      (list) => list.some((b) => b.event_type === 'application.transcription_ready'),
      'the end callbacks',
      15_000,
    );
    const types = ending.map((b) => b.event_type).filter((t) => t !== 'canvas.interaction');
    assert.deepEqual(types, ['system.pal_joined', 'system.replica_joined', 'system.shutdown', 'application.transcription_ready']);
    const shutdown = ending.find((b) => b.event_type === 'system.shutdown');
    assert.equal(shutdown.properties.shutdown_reason, 'participant_left_timeout reached');
    const transcript = ending.find((b) => b.event_type === 'application.transcription_ready').properties.transcript as Array<{
      role: string;
      content: string;
    }>;
    assert.deepEqual(
      transcript.map((e) => [e.role, e.content]),
      [['assistant', VERBAL], ['assistant', GREETING], ['user', TYPED], ['assistant', TYPED], ...expected.map((e) => ['assistant', e.ack])],
    );
    assert.deepEqual(await palErrors(page), []);
  });

  it('an `off` PAL: no banner and no spoken disclosure; the greeting comes first', async () => {
    const { page, conversationId } = await join('off');
    await page.locator('pal-transcript[mode="captions"] [part="captions"] .caption-text').filter({ hasText: GREETING }).waitFor();
    assert.equal(await page.locator('pal-disclosure').getAttribute('state'), 'hidden');
    assert.equal(await page.locator('pal-disclosure [part="banner"]').isVisible(), false);
    const isReplicaUtterance = (m: any) => m.event_type === 'conversation.utterance' && m.properties.role === 'replica';
    const all = await eventually(
      () => messages(page),
      (list) => list.some(isReplicaUtterance),
      'the complete greeting',
    );
    assert.equal(all.filter((m) => m.event_type === 'conversation.disclosure').length, 0);
    const replicaUtterances = all.filter(isReplicaUtterance).map((m) => m.properties.speech);
    assert.deepEqual(replicaUtterances, [GREETING]);
    await page.locator('pal-controls [part="end"]').click();
    await page.locator('pal-ended').waitFor();
    const ending = await eventually(
      async () => callbacksOf(conversationId),
      (list) => list.some((b) => b.event_type === 'application.transcription_ready'),
      'the end callbacks',
      15_000,
    );
    const transcript = ending.find((b) => b.event_type === 'application.transcription_ready').properties.transcript as Array<{
      role: string;
      content: string;
    }>;
    assert.deepEqual(
      transcript.map((e) => [e.role, e.content]),
      [['assistant', GREETING]],
    );
  });

  it("a spoken question, heard by the browser's speech recognition, gets the echo PAL's answer in the transcript", async () => {
    const SPOKEN = 'Do you have this in blue?';
    const { page, conversationId } = await join('off', async (p) => void (await p.addInitScript(recognitionStandIn)));
    await page.locator('pal-transcript[mode="captions"] [part="captions"] .caption-text').filter({ hasText: GREETING }).waitFor();
    // Recognition listens once the PAL's spoken greeting is over (it must not hear the PAL).
    await eventually(
      () => page.evaluate(() => (window as any).__recognition?.running === true),
      (running) => running,
      'listening after the greeting',
      30_000,
    );
    await page.evaluate((text) => (window as any).__recognition.say(text), SPOKEN);
    await page.locator('pal-transcript[mode="captions"] [part="captions"] .caption-text').filter({ hasText: SPOKEN }).waitFor();
    const complete = (list: any[]) => list.filter((m) => m.event_type === 'conversation.utterance');
    const all = await eventually(
      () => messages(page),
      (list) => complete(list).length >= 3,
      'the echo of what was said',
    );
    const utterances = complete(all).map((m) => [m.properties.role, m.properties.speech]);
    assert.deepEqual(utterances, [
      ['replica', GREETING],
      ['user', SPOKEN],
      ['replica', SPOKEN],
    ]);
    assert.equal(
      all.find((m) => m.event_type === 'conversation.utterance' && m.properties.role === 'user').conversation_id,
      conversationId,
    );
    await page.locator('pal-controls [part="end"]').click();
    await page.locator('pal-ended').waitFor();
    const ending = await eventually(
      async () => callbacksOf(conversationId),
      (list) => list.some((b) => b.event_type === 'application.transcription_ready'),
      'the end callbacks',
      15_000,
    );
    const transcript = ending.find((b) => b.event_type === 'application.transcription_ready').properties.transcript as Array<{
      role: string;
      content: string;
    }>;
    assert.deepEqual(
      transcript.map((e) => [e.role, e.content]),
      [
        ['assistant', GREETING],
        ['user', SPOKEN],
        ['assistant', SPOKEN],
      ],
    );
    assert.deepEqual(await palErrors(page), []);
  });
});

// The Web Speech API's SpeechRecognition as a page sees it, driven by the test through window.__recognition.
const recognitionStandIn = `
window.SpeechRecognition = window.webkitSpeechRecognition = class extends EventTarget {
  constructor() { super(); this.running = false; window.__recognition = this; }
  start() { if (this.running) throw new DOMException('already started', 'InvalidStateError'); this.running = true; }
  stop() { this.#end(); }
  abort() { this.#end(); }
  say(text) {
    const result = Object.assign([{ transcript: text, confidence: 0.92 }], { isFinal: true });
    this.dispatchEvent(Object.assign(new Event('result'), { resultIndex: 0, results: [result] }));
  }
  #end() { if (this.running) { this.running = false; this.dispatchEvent(new Event('end')); } }
};`;
