// POST/GET /v2/conversations/{id}/canvas/interactions: public while active, idempotent, rate limited in
// the database, validated per component, the canvas.interaction callback, refused after the end.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { canvasValueLimits, isValidInteractionValue, type CanvasInteractionType } from '../../../../src/protocol/canvas.js';
import { listConversationEvents } from '../../../../src/server/resources/conversations/events-store.js';
import { OTHER_KEY, startListeningService, type TestService } from '../../../helpers/service.js';
import { insertConversation, insertPal, startCallbackReceiver, type CallbackReceiver } from '../../../helpers/live-fixtures.js';
import { ManualClock } from '../../../helpers/clock.js';

describe('canvas interactions', () => {
  let t: TestService;
  let receiver: CallbackReceiver;
  let palId: string;
  // The service's time stands still unless a test moves it: the rate limit's minute window (whole minutes
  // of the service's clock) is 5 s old, so a burst is always counted in one window, however slow the machine.
  const MINUTE = 60_000;
  const clock = new ManualClock(Math.floor(Date.now() / MINUTE) * MINUTE + 5_000);
  before(async () => {
    t = await startListeningService({ PALKIT_ROOM_POLL_MS: '200' }, { clock });
    receiver = await startCallbackReceiver();
    palId = await insertPal(t, { canvas: {} });
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  const path = (id: string) => `/v2/conversations/${id}/canvas/interactions`;
  const submit = (
    interactionId: string,
    value: Record<string, unknown> = { selected_option_ids: ['opt_2'], skipped: false },
    extra: Record<string, unknown> = {},
  ) => ({
    interaction_id: interactionId,
    tool_call_id: 'call_abc',
    component: 'canvas.question',
    component_version: 'v1',
    type: 'submit',
    value,
    ...extra,
  });

  it('records without a key, sends canvas.interaction once, and answers identical retries with 200', async () => {
    const room = await insertConversation(t, { palId, callbackUrl: receiver.url });
    const first = await t.api(
      'POST',
      path(room.conversationId),
      submit('ci_call_abc_submit_1', undefined, { metadata: { client: 'kiosk-web' } }),
      { key: null, headers: { origin: 'https://shop.example' } },
    );
    assert.equal(first.status, 200);
    assert.deepEqual(first.body, { success: true });
    assert.equal(first.headers.get('access-control-allow-origin'), '*');
    const retry = await t.api(
      'POST',
      path(room.conversationId),
      submit('ci_call_abc_submit_1', { skipped: false, selected_option_ids: ['opt_2'] }, { metadata: { client: 'other' } }),
      { key: null },
    );
    assert.equal(retry.status, 200, 'metadata and key order are not part of the match');
    const clash = await t.api(
      'POST',
      path(room.conversationId),
      submit('ci_call_abc_submit_1', { selected_option_ids: ['opt_1'], skipped: false }),
      { key: null },
    );
    assert.equal(clash.status, 409);
    assert.equal(typeof clash.body.error, 'string');

    await receiver.waitFor((b) => b.some((x) => x.conversation_id === room.conversationId));
    await t.service.deps.jobs.drain(); // every callback the posts enqueued is delivered: a retry sent none
    const callbacks = receiver.bodies.filter((x) => x.conversation_id === room.conversationId);
    assert.equal(callbacks.length, 1);
    const [callback] = callbacks;
    assert.equal(callback!.event_type, 'canvas.interaction');
    assert.equal(callback!.message_type, 'canvas');
    assert.match(callback!.timestamp, /Z$/);
    assert.deepEqual(
      { ...callback!.properties, created_at: undefined },
      {
        conversation_id: room.conversationId,
        interaction_id: 'ci_call_abc_submit_1',
        tool_call_id: 'call_abc',
        component: 'canvas.question',
        component_version: 'v1',
        type: 'submit',
        value: { selected_option_ids: ['opt_2'], skipped: false },
        metadata: { client: 'kiosk-web' },
        created_at: undefined,
      },
    );
    const events = await listConversationEvents(t.service.deps.db, room.conversationId);
    assert.deepEqual(
      events.map((e) => e.event_type),
      ['canvas.interaction'],
    );

    await t.api('POST', path(room.conversationId), { ...submit('ci_call_abc_heartbeat_2'), type: 'heartbeat', value: {} }, { key: null });
    const list = await t.api('GET', path(room.conversationId));
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.data.map((i: { interaction_id: string }) => i.interaction_id),
      ['ci_call_abc_submit_1', 'ci_call_abc_heartbeat_2'],
    );
    assert.equal((await t.api('GET', path(room.conversationId), undefined, { key: null })).status, 401);
    assert.equal((await t.api('GET', path(room.conversationId), undefined, { key: OTHER_KEY })).status, 404);
  });

  it('answers the CORS preflight for any origin', async () => {
    const room = await insertConversation(t, { palId });
    const response = await fetch(t.url + path(room.conversationId), {
      method: 'OPTIONS',
      headers: {
        origin: 'https://anywhere.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    assert.ok(response.status === 204 || response.status === 200);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /POST/);
  });

  it('validates the value per component and type', async () => {
    const room = await insertConversation(t, { palId });
    const post = (body: Record<string, unknown>) => t.api('POST', path(room.conversationId), body, { key: null });
    const bad = [
      submit('b1', { selected_option_ids: 'opt_1' }),
      { ...submit('b2'), component: 'canvas.nothing' },
      { ...submit('b3'), component_version: 'v9' },
      { ...submit('b4'), component: 'canvas.calendar', value: { selected_date: '21/11/2026' } },
      { ...submit('b5'), component: 'canvas.calendar', value: { selected_date: '2026-11-21', selected_slot: '2026-11-21T10:00:00Z' } },
      { ...submit('b6'), component: 'canvas.text', value: {} },
      { ...submit('b7'), component: 'canvas.input', value: {} },
      { ...submit('b8'), interaction_id: '' },
      { ...submit('b9'), tool_call_id: 'x'.repeat(129) },
      { ...submit('b10'), type: 'tap' },
    ];
    for (const body of bad) {
      const r = await post(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body.error, /^invalid_request/);
    }
    const good = [
      { ...submit('g1'), component: 'canvas.calendar', value: { selected_range: { start: '2026-11-21', end: '2026-11-23' } } },
      { ...submit('g2'), component: 'canvas.calendar', value: { selected_slots: ['2026-11-21T10:00:00Z', '2026-11-21T14:00:00Z'] } },
      { ...submit('g3'), component: 'canvas.input', value: { value: 'dana@example.com' } },
      { ...submit('g4'), component: 'canvas.alert', type: 'dismiss', value: {} },
      { ...submit('g5'), component: 'canvas.scheduling_embed', value: { event_uri: 'https://api.calendly.com/scheduled_events/1' } },
      { ...submit('g6'), type: 'skip', value: { skipped: true } },
    ];
    for (const body of good) assert.equal((await post(body)).status, 200, JSON.stringify(body));
    assert.equal((await t.api('POST', path('cnosuch'), submit('x'), { key: null })).status, 404);
  });

  it("accepts exactly what the protocol (and so the elements' cards) accepts, at the limits defined once there", async () => {
    const room = await insertConversation(t, { palId });
    const L = canvasValueLimits;
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['canvas.question', 'submit', { selected_option_ids: ['o'.repeat(L.optionId)], skipped: false }],
      ['canvas.question', 'submit', { selected_option_ids: ['o'.repeat(L.optionId + 1)], skipped: false }],
      ['canvas.question', 'submit', { selected_option_ids: [], other_text: 'x'.repeat(L.otherText), skipped: false }],
      ['canvas.question', 'submit', { selected_option_ids: [], other_text: 'x'.repeat(L.otherText + 1), skipped: false }],
      ['canvas.question', 'submit', { selected_option_ids: [], skipped: false }],
      ['canvas.input', 'submit', { value: 'x'.repeat(L.inputValue) }],
      ['canvas.input', 'submit', { value: 'x'.repeat(L.inputValue + 1) }],
      ['canvas.scheduling_embed', 'submit', { event_uri: `https://api.calendly.com/${'e'.repeat(L.schedulingUri - 25)}` }],
      ['canvas.scheduling_embed', 'submit', { event_uri: `https://api.calendly.com/${'e'.repeat(L.schedulingUri - 24)}` }],
      ['canvas.calendar', 'submit', { selected_range: { start: '2026-11-21T09:00:00Z', end: '2026-11-21T10:00:00Z' } }],
      ['canvas.calendar', 'submit', { selected_range: { start: '2026-11-23', end: '2026-11-21' } }],
      ['canvas.input', 'error', { code: 'render_failed', message: 'prompt too long' }],
      ['canvas.input', 'error', {}],
    ];
    const verdicts = [];
    for (const [i, [component, type, value]] of cases.entries()) {
      const r = await t.api('POST', path(room.conversationId), { ...submit(`lim${i}`), component, type, value }, { key: null });
      assert.ok(
        r.status === 200 || (r.status === 400 && /^invalid_request: value/.test(r.body.error)),
        `${r.status} ${JSON.stringify(r.body)}`,
      );
      verdicts.push({
        case: i,
        server: r.status === 200,
        protocol: isValidInteractionValue(component, type as CanvasInteractionType, value),
      });
    }
    assert.deepEqual(
      verdicts.map((v) => v.server),
      verdicts.map((v) => v.protocol),
      JSON.stringify(verdicts),
    );
    assert.deepEqual(
      verdicts.map((v) => v.server),
      [true, false, true, false, false, true, false, true, false, true, false, true, false],
    );
  });

  it('allows 120 posts a minute per address and conversation, counted in the database', async () => {
    const room = await insertConversation(t, { palId });
    const other = await insertConversation(t, { palId });
    const heartbeat = (i: number) => ({ ...submit(`hb_${i}`), type: 'heartbeat', value: {} });
    const responses = await Promise.all(
      Array.from({ length: 120 }, (_, i) => t.api('POST', path(room.conversationId), heartbeat(i), { key: null })),
    );
    assert.ok(responses.every((r) => r.status === 200));
    const over = await t.api('POST', path(room.conversationId), heartbeat(120), { key: null });
    assert.equal(over.status, 429);
    assert.deepEqual(over.body, { error: 'Too many requests' });
    const retryAfter = Number(over.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(
      (await t.api('POST', path(other.conversationId), heartbeat(0), { key: null })).status,
      200,
      'another conversation has its own count',
    );
    const { n } = await t.service.deps.db
      .selectFrom('canvas_interaction_rate')
      .select((eb) => eb.fn.max('hits').as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(n), 121);
    // The next minute counts afresh.
    await clock.advance(retryAfter * 1000);
    assert.equal((await t.api('POST', path(room.conversationId), heartbeat(121), { key: null })).status, 200, 'a new window');
  });

  it('refuses interactions once the conversation has ended', async () => {
    const room = await insertConversation(t, { palId });
    assert.equal((await t.api('POST', path(room.conversationId), submit('e1'), { key: null })).status, 200);
    await t.service.deps.db
      .updateTable('conversations')
      .set({ status: 'ended', shutdown_reason: 'end_conversation_endpoint_hit', ended_at: new Date() })
      .where('conversation_id', '=', room.conversationId)
      .execute();
    const refused = await t.api('POST', path(room.conversationId), submit('e1'), { key: null });
    assert.equal(refused.status, 410);
    assert.deepEqual(refused.body, { error: 'conversation_ended' });
    const list = await t.api('GET', path(room.conversationId));
    assert.equal(list.body.data.length, 1, 'still readable after the end');
  });

  it('documents both routes in the OpenAPI document', async () => {
    const doc = await t.api('GET', '/openapi.json', undefined, { key: null });
    const item = doc.body.paths['/v2/conversations/{conversation_id}/canvas/interactions'];
    assert.ok(item.post && item.get);
    assert.deepEqual(item.post.security, []);
    assert.ok(doc.body.paths['/v2/conversations/{conversation_id}/events'].post);
    assert.ok(doc.body.paths['/rooms/{conversation_id}'].get.responses['200'].content['text/html']);
  });
});
