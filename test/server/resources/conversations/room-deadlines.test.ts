// The room poll reads only conversations past a deadline: its SQL condition must pick exactly the rows
// nextDeadline (the rule a room and the poll apply) finds due, whatever the properties hold.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deadlinePassedSql, nextDeadline, roomLimits } from '../../../../src/server/resources/conversations/limits.js';
import { newId } from '../../../../src/server/platform/ids.js';
import { createPal } from '../../../helpers/fixtures.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { ManualClock } from '../../../helpers/clock.js';
import { insertConversation } from '../../../helpers/live-fixtures.js';
import { waitFor } from '../../../helpers/wait-for.js';
import { ShutdownReasons } from '../../../../src/protocol/callbacks.js';

describe('room deadlines in SQL', () => {
  let t: TestService;
  let palId: string;
  before(async () => {
    t = await startListeningService();
    ({ palId } = (await createPal(t)) as { palId: string });
  });
  after(() => t.close());

  it('selects exactly the conversations whose nextDeadline has passed', async () => {
    const created = new Date('2026-11-23T10:00:00.000Z');
    const at = (seconds: number) => new Date(created.getTime() + seconds * 1000);
    const propertiesCases: Record<string, unknown>[] = [
      {},
      { max_call_duration: 120 },
      { participant_absent_timeout: 30 },
      { participant_absent_timeout: 0 },
      { participant_left_timeout: 5, max_call_duration: 600 },
      { participant_absent_timeout: -4, participant_left_timeout: 'soon', max_call_duration: null },
      { participant_absent_timeout: 12.5, max_call_duration: 10 },
      { participant_left_timeout: { seconds: 3 } },
    ];
    const marksCases = [
      { live_started_at: null, live_empty_since: null, live_heartbeat_at: null },
      { live_started_at: at(5), live_empty_since: null, live_heartbeat_at: at(50) },
      { live_started_at: at(5), live_empty_since: at(40), live_heartbeat_at: at(50) },
      { live_started_at: at(5), live_empty_since: null, live_heartbeat_at: null },
    ];
    const rows = propertiesCases.flatMap((properties) =>
      marksCases.map((marks) => ({ conversation_id: newId('c'), properties, ...marks })),
    );
    const { db } = t.service.deps;
    await db
      .insertInto('conversations')
      .values(
        rows.map((r) => ({
          conversation_id: r.conversation_id,
          owner_id: 1,
          pal_id: palId,
          conversation_name: 'Deadline case',
          provider: 'local' as const,
          conversation_url: `${t.url}/rooms/${r.conversation_id}`,
          memory_stores: '[]',
          properties: JSON.stringify(r.properties),
          created_at: created,
          updated_at: created,
          live_started_at: r.live_started_at,
          live_empty_since: r.live_empty_since,
          live_heartbeat_at: r.live_heartbeat_at,
        })),
      )
      .execute();
    const ids = rows.map((r) => r.conversation_id);

    for (const seconds of [0, 9, 10, 11, 12.5, 20, 30, 44, 45, 46, 54, 55, 56, 60, 110, 120, 299, 300, 301, 599, 600, 3599, 3600, 3601]) {
      const now = at(seconds);
      const due = rows.filter((r) => {
        const emptySince = r.live_empty_since ?? (r.live_started_at ? (r.live_heartbeat_at ?? r.live_started_at) : null);
        return nextDeadline({ createdAt: created, startedAt: r.live_started_at, emptySince }, roomLimits(r.properties)).at <= now;
      });
      const selected = await db
        .selectFrom('conversations')
        .select('conversation_id')
        .where('conversation_id', 'in', ids)
        .where(deadlinePassedSql(now))
        .execute();
      assert.deepEqual(selected.map((r) => r.conversation_id).sort(), due.map((r) => r.conversation_id).sort(), `at ${seconds} s`);
    }
  });
});

// The room poll runs on the service's clock: a conversation nobody joined ends at its max_call_duration on
// the first poll after the test moves the clock past it (polls a minute apart: on real timers, none would come).
describe('room deadlines on the test clock', () => {
  let t: TestService;
  let palId: string;
  const clock = new ManualClock();
  before(async () => {
    t = await startListeningService({ PALKIT_ROOM_POLL_MS: '60000' }, { clock });
    ({ palId } = (await createPal(t)) as { palId: string });
  });
  after(() => t.close());

  it('the poll ends a conversation nobody joined once the clock passes its max_call_duration', async () => {
    const { db } = t.service.deps;
    const room = await insertConversation(t, { palId, properties: { max_call_duration: 90, participant_absent_timeout: 600 } });
    await db.updateTable('conversations').set({ created_at: clock.now() }).where('conversation_id', '=', room.conversationId).execute();
    const row = () =>
      db
        .selectFrom('conversations')
        .select(['status', 'shutdown_reason'])
        .where('conversation_id', '=', room.conversationId)
        .executeTakeFirstOrThrow();
    await clock.advance(61_000); // one poll, before the deadline
    await clock.drain(50);
    assert.equal((await row()).status, 'active', 'not before the deadline');
    await clock.advance(60_000); // the next poll, past it
    // On PostgreSQL the poll at 61 s may still be at work when the clock reaches the next one, and a poll never
    // overlaps the one before: each look that finds the conversation active moves the clock to the next poll.
    const ended = await waitFor(
      async () => {
        const now = await row();
        if (now.status === 'ended') return now;
        await clock.advance(60_000);
        return null;
      },
      { what: 'the poll to end the conversation' },
    );
    assert.equal(ended.shutdown_reason, ShutdownReasons.maxCallDuration);
  });
});
