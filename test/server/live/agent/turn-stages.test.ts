// Where a typed turn's reply goes on its way to the visitor's ears (issue 26): the PAL marks each stage
// at debug level (what `npm run bench -- heard` reads), in order, and the visitor's turn is written to
// the transcript only after the reply's first sentence is with the voice (the embedded database runs on
// the service's thread: an insert ahead of it held the reply up).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PalAgent } from '../../../../src/server/live/agent/pal-agent.js';
import { loadLiveConversation } from '../../../../src/server/resources/conversations/live-conversation.js';
import type { Logger } from '../../../../src/server/platform/log.js';
import { eventually } from '../../../helpers/e2e-world.js';
import { insertConversation, insertPal } from '../../../helpers/live-fixtures.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';

describe('a typed turn on its way to the voice', () => {
  let t: TestService;
  /** What happened, in order: the PAL's stage marks and the transcript inserts. */
  const order: string[] = [];
  const errors: string[] = [];

  before(async () => {
    t = await startListeningService({ PALKIT_PAL_WORDS_PER_MINUTE: '6000' });
    const { deps } = t.service;
    const log: Logger = {
      error: (msg) => void errors.push(msg),
      info: () => undefined,
      debug: (msg, fields) => void (msg === 'turn stage' && order.push(String(fields?.stage))),
    };
    const db = deps.db;
    const watched = new Proxy(db, {
      get(target, prop) {
        if (prop === 'insertInto') {
          return (table: Parameters<typeof db.insertInto>[0]) => {
            if (table === 'conversation_transcript_entries') order.push('transcript');
            return target.insertInto(table);
          };
        }
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    // This file's own service: its PAL logs and writes through these (the voice engine stays the service's).
    Object.assign(deps, { log, db: watched });
  });
  after(() => t.close());

  it('marks received → text → sentence → samples → sent, and writes the turn after the sentence went to the voice', async () => {
    const palId = await insertPal(t, { pipelineMode: 'echo', name: 'Echo' });
    const { conversationId } = await insertConversation(t, { palId });
    const conv = (await loadLiveConversation(t.service.deps.db, conversationId))!;
    const agent = new PalAgent(t.service.deps, conv, {
      send: () => undefined,
      notice: () => undefined,
      startedAt: new Date(),
      audio: { sendAudio: () => undefined, flushAudio: () => undefined },
    });
    try {
      agent.handle(
        {
          message_type: 'conversation',
          event_type: 'conversation.respond',
          conversation_id: conversationId,
          properties: { text: 'Hello there.' },
        },
        { participantId: 'v1', userName: 'Visitor' },
      );
      await eventually(
        async () => [...order],
        (o) => o.includes('sent') && o.includes('transcript'),
        'the reply sent and the turn written',
      );
      const stages = order.filter((o) => o !== 'transcript');
      assert.deepEqual(stages.slice(0, 5), ['received', 'text', 'sentence', 'samples', 'sent']);
      assert.ok(
        order.indexOf('transcript') > order.indexOf('sentence'),
        `the turn was written after its reply went to the voice: ${order.join(', ')}`,
      );
      assert.deepEqual(errors, []);
    } finally {
      await agent.stop();
    }
  });
});
