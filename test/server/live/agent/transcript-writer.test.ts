// The PAL's transcript writes (live/agent/transcript-writer.ts) on the real database, both legs: turns are
// inserted in the order they were recorded, whatever each waits for, and a failed write ends no other.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadTranscript } from '../../../../src/server/resources/conversations/transcript-store.js';
import { TranscriptWriter, type RecordedTurn } from '../../../../src/server/live/agent/transcript-writer.js';
import type { Logger } from '../../../../src/server/platform/log.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { insertConversation, insertPal } from '../../../helpers/live-fixtures.js';

describe('transcript writer', () => {
  let t: TestService;
  let palId: string;
  before(async () => {
    t = await startListeningService();
    palId = await insertPal(t, { pipelineMode: 'echo' });
  });
  after(() => t.close());

  const errors: Array<Record<string, unknown> | undefined> = [];
  const log: Logger = { error: (_msg, fields) => errors.push(fields), info: () => undefined, debug: () => undefined };
  const startedAt = new Date('2026-11-26T10:00:00Z');
  const writerFor = async () => {
    const { conversationId } = await insertConversation(t, { palId });
    return { conversationId, writer: new TranscriptWriter(t.service.deps.db, log, conversationId, startedAt) };
  };

  it('inserts the turns in the order they were recorded, one waiting for its hand-off holding back those after it', async () => {
    const { conversationId, writer } = await writerFor();
    const at = new Date(startedAt.getTime() + 500);
    let handOff!: () => void;
    // The visitor's question waits for the hand-off of its answer (pal-agent.ts); the answer, begun at the
    // same instant on a clock that stands still, is recorded while it waits.
    writer.record({ role: 'user', content: 'How long is this call?', ...writer.timing(at, 0), participant_name: 'Dana' }, new Promise<void>((r) => (handOff = r)));
    writer.record({ role: 'assistant', content: 'Two seconds.', ...writer.timing(at, 0.4) });
    assert.deepEqual(await loadTranscript(t.service.deps.db, conversationId), [], 'the answer waits for the question');
    handOff();
    await writer.settled();
    const transcript = await loadTranscript(t.service.deps.db, conversationId);
    assert.deepEqual(transcript.map((e) => [e.role, e.content, e.seconds_from_start]), [
      ['user', 'How long is this call?', 0.5],
      ['assistant', 'Two seconds.', 0.5],
    ]);
  });

  it('logs a write the database refuses and goes on with the next', async () => {
    const { conversationId, writer } = await writerFor();
    const at = new Date(startedAt.getTime() + 1000);
    writer.record({ role: 'user', content: null, ...writer.timing(at, 0) } as unknown as RecordedTurn);
    writer.record({ role: 'assistant', content: 'Still here.', ...writer.timing(at, 0.3) });
    await writer.drained();
    assert.deepEqual((await loadTranscript(t.service.deps.db, conversationId)).map((e) => e.content), ['Still here.']);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.conversation_id, conversationId);
  });
});
