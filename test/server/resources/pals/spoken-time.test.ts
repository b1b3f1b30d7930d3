// Dates and times as the PAL says them: in the visitor's zone and the reply language's way of writing
// them (the page sends its Intl time zone and language with the join frame), never as a machine would.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { spokenTime, visitorClock } from '../../../../src/server/resources/pals/lines/spoken-time.js';
import { acknowledgement } from '../../../../src/server/live/agent/cards.js';
import { insertConversation, insertPal, RoomClient } from '../../../helpers/live-fixtures.js';
import { startListeningService, onPostgres, type TestService } from '../../../helpers/service.js';

const SLOT = '2026-11-24T10:00:00Z';

// The subject is not the database: the PostgreSQL leg of the server suite leaves this file out.
const skip = onPostgres && 'PGlite only: dates and times as the PAL says them';

describe('times said as a person would', { skip }, () => {
  it('in the visitor’s zone and the reply language (the page’s variant of it)', () => {
    assert.equal(spokenTime(SLOT, 'de', visitorClock('Europe/Berlin', 'de-DE')), 'Dienstag, 24. November um 11:00');
    assert.equal(spokenTime(SLOT, 'en', visitorClock('Europe/London', 'en-GB')), 'Tuesday 24 November at 10:00');
    assert.match(spokenTime(SLOT, 'en', visitorClock('America/New_York', 'en-US')), /^Tuesday, November 24 at 5:00\sAM$/);
    assert.equal(spokenTime(SLOT, 'ja', visitorClock('Asia/Tokyo', 'ja-JP')), '11月24日火曜日 19:00');
    // A page in another language than the PAL speaks: the PAL's language, the page's zone.
    assert.equal(spokenTime(SLOT, 'de', visitorClock('Europe/Berlin', 'en-US')), 'Dienstag, 24. November um 11:00');
  });

  it('without the visitor’s zone, says which zone the time is in', () => {
    assert.match(spokenTime(SLOT, 'en'), /^Tuesday, November 24 at 10:00\sAM UTC$/);
  });

  it('ignores a zone or language tag the runtime does not know (fuzz)', () => {
    assert.deepEqual(visitorClock('Mars/Olympus_Mons', 'not a tag!'), {});
    assert.deepEqual(visitorClock('x'.repeat(500), 'y'.repeat(500)), {});
    const chars = 'abcXYZ/_-+0123456789 \u0000\u202e😀';
    for (let i = 0; i < 500; i++) {
      const junk = () =>
        Array.from({ length: Math.floor(Math.random() * 40) }, () => chars[Math.floor(Math.random() * chars.length)]).join('');
      const clock = visitorClock(junk(), junk());
      assert.doesNotThrow(() => spokenTime(SLOT, 'en', clock));
    }
  });

  it('a chosen calendar slot is acknowledged in the PAL’s language', () => {
    const de = acknowledgement({ type: 'submit', value: { selected_slot: SLOT } }, undefined, {
      lang: 'de',
      clock: visitorClock('Europe/Berlin', undefined),
    });
    assert.equal(de, 'Gut, dann Dienstag, 24. November um 11:00.');
    const both = acknowledgement({ type: 'submit', value: { selected_slots: [SLOT, '2026-11-24T14:00:00Z'] } }, undefined, {
      lang: 'fr',
      clock: visitorClock('Europe/Paris', 'fr-FR'),
    });
    assert.equal(both, 'Parfait, j’ai noté mardi 24 novembre à 11:00 et mardi 24 novembre à 15:00.');
  });
});

describe('the join frame’s time zone and language', { skip }, () => {
  let t: TestService;
  before(async () => {
    t = await startListeningService();
  });
  after(() => t.close());

  it('a join with junk in time_zone and locale is admitted like any other', async () => {
    const pal = await insertPal(t, { canvas: {} });
    for (const page of [
      { time_zone: 'Not/AZone', locale: '!!' },
      { time_zone: 'z'.repeat(10_000), locale: '' },
      { time_zone: 'Europe/Berlin', locale: 'de-DE' },
    ]) {
      const room = await insertConversation(t, { palId: pal, customGreeting: 'Hi.' });
      const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana', page);
      await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica');
      client.close();
    }
  });
});
