// Magic Canvas cards in the PAL's language (issue 35, interface audit J5): the line said as a card
// appears, the card's own texts and the acknowledgement after the visitor answers all come from the
// PAL's line tables in the reply language, in every language it speaks; nothing is English in a
// non-English call. A German PAL in a live room shows and answers a card in German.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { acknowledgement, cardFor } from '../../../../src/server/live/agent/cards.js';
import { cardLine, spokenLanguages } from '../../../../src/server/resources/pals/lines/language.js';
import { CARD_LINES } from '../../../../src/server/resources/pals/lines/pal-card-lines.js';
import { startListeningService, onPostgres, type TestService } from '../../../helpers/service.js';
import { insertConversation, insertPal, RoomClient } from '../../../helpers/live-fixtures.js';

const NOW = new Date('2026-11-24T09:00:00Z');
const skill = { components: {} };
// A visitor asking to choose and to book, in each language.
const ASKED: Record<string, [choose: string, book: string]> = {
  en: ['Which option do you recommend?', 'Can I book an appointment?'],
  de: ['Welche Option empfehlen Sie?', 'Kann ich einen Termin vereinbaren?'],
  fr: ['Quelle option me conseillez-vous ?', 'Puis-je prendre rendez-vous ?'],
  es: ['¿Qué opción me recomienda?', '¿Puedo pedir una cita?'],
  it: ['Quale opzione mi consiglia?', 'Posso prenotare un appuntamento?'],
  pt: ['Que opção recomenda?', 'Posso marcar uma reserva?'],
  nl: ['Welke optie raadt u aan?', 'Kan ik een afspraak maken?'],
  ja: ['どれを選べばいいですか？', '予約できますか？'],
  sv: ['Vilket alternativ rekommenderar du?', 'Kan jag boka en tid?'],
  da: ['Hvilke muligheder har jeg at vælge mellem?', 'Kan jeg booke en tid?'],
  nb: ['Hvilket alternativ anbefaler du?', 'Kan jeg bestille time?'],
  no: ['Kan du hjelpe meg å velge?', 'Kan jeg booke en avtale?'],
  fi: ['Mikä vaihtoehto kannattaa valita?', 'Voinko varata ajan?'],
  pl: ['Którą opcję Pan poleca?', 'Czy mogę umówić wizytę?'],
  cs: ['Kterou možnosti doporučujete? Chci vybrat.', 'Můžu si objednat termín?'],
  ru: ['Какой вариант вы посоветуете?', 'Можно записаться на приём?'],
  uk: ['Який варіант ви порадите?', 'Можна забронювати час?'],
  tr: ['Hangi seçeneği önerirsiniz?', 'Randevu alabilir miyim?'],
  zh: ['您推荐哪个选项？', '我可以预约吗？'],
  ko: ['어떤 옵션을 선택하면 좋을까요?', '예약할 수 있나요?'],
};
const english = new Set(Object.values(CARD_LINES.en!));

/** Every text a card shows (title, question, option labels). */
function shown(args: Record<string, unknown>): string[] {
  const options = Array.isArray(args.options) ? (args.options as Array<{ label: string }>).map((o) => o.label) : [];
  return [args.title, args.question, ...options].filter((x): x is string => typeof x === 'string');
}

// The subject is not the database: the PostgreSQL leg of the server suite leaves this file out.
const skip = onPostgres && "PGlite only: the cards' texts from the line tables";

describe('Magic Canvas cards in the PAL’s language', { skip }, () => {
  it('every spoken language has every card line, none of them the English one', () => {
    assert.deepEqual(Object.keys(ASKED).sort(), [...spokenLanguages].sort());
    for (const lang of spokenLanguages) {
      for (const key of Object.keys(CARD_LINES.en!) as Array<keyof typeof CARD_LINES.en>) {
        const line = cardLine(lang, key, { choice: 'X', date: 'D', start: 'S', end: 'E', value: 'V' });
        assert.ok(line.trim().length > 1, `${lang} ${key}`);
        if (lang !== 'en')
          assert.notEqual(
            line,
            cardLine('en', key, { choice: 'X', date: 'D', start: 'S', end: 'E', value: 'V' }),
            `${lang} ${key} is English`,
          );
      }
    }
  });

  for (const [lang, [choose, book]] of Object.entries(ASKED)) {
    it(`${lang}: the card's line, texts and acknowledgements are in ${lang}`, () => {
      const question = cardFor(choose, skill, NOW, lang);
      assert.equal(question?.name, 'canvas_show_question', `${lang} "${choose}"`);
      assert.equal(question.line, cardLine(lang, 'optionsLine'));
      const calendar = cardFor(book, skill, NOW, lang);
      assert.equal(calendar?.name, 'canvas_show_calendar', `${lang} "${book}"`);
      assert.equal(calendar.line, cardLine(lang, 'timesLine'));
      assert.equal(calendar.args.title, cardLine(lang, 'timesTitle'));
      const said = [question.line, calendar.line, ...shown(question.args), ...shown(calendar.args)];
      const options = question.args.options as Array<{ id: string; label: string }>;
      const acks = [
        acknowledgement({ type: 'submit', value: { selected_option_ids: [options[0]!.id] } }, question.args, { lang, clock: {} }),
        acknowledgement({ type: 'submit', value: { selected_date: '2026-11-27' } }, undefined, { lang, clock: {} }),
        acknowledgement({ type: 'submit', value: { selected_range: { start: '2026-11-27', end: '2026-11-29' } } }, undefined, {
          lang,
          clock: {},
        }),
        acknowledgement({ type: 'submit', value: { value: 'dana@example.com' } }, undefined, { lang, clock: {} }),
        acknowledgement({ type: 'submit', value: { event_uri: 'https://calendly.example/e/1' } }, undefined, { lang, clock: {} }),
        acknowledgement({ type: 'submit', value: {} }, undefined, { lang, clock: {} }),
        acknowledgement({ type: 'skip', value: { skipped: true } }, undefined, { lang, clock: {} }),
        acknowledgement({ type: 'dismiss', value: {} }, undefined, { lang, clock: {} }),
      ];
      assert.equal(acks[0], cardLine(lang, 'chose', { choice: cardLine(lang, 'tellMore') }));
      for (const text of [...said, ...acks]) {
        assert.ok(text, `${lang}: a line`);
        if (lang === 'en') continue;
        assert.ok(!english.has(text), `${lang}: "${text}" is English`);
        assert.doesNotMatch(
          text,
          /\b(?:Thanks|Great|you chose|it is|I've|Pick a time|Tell me more|Okay\.|No problem)\b/,
          `${lang}: "${text}"`,
        );
        assert.doesNotMatch(text, /\b2026-11-2\d\b/, `${lang}: a date is said, not written as a machine writes it`);
      }
    });
  }

  it('the options a visitor names are the card’s options, in their language’s words for "or" and "and"', () => {
    const labels = (text: string, lang: string) =>
      (cardFor(text, skill, NOW, lang)?.args.options as Array<{ label: string }>).map((o) => o.label);
    assert.deepEqual(labels('Help me choose between tea, coffee or water', 'en'), ['tea', 'coffee', 'water']);
    assert.deepEqual(labels('Hilf mir wählen zwischen Tee, Kaffee oder Wasser', 'de'), ['Tee', 'Kaffee', 'Wasser']);
    assert.deepEqual(labels('Aide-moi à choisir entre le thé et le café', 'fr'), ['thé', 'café']);
    assert.deepEqual(labels('Pick between a red one and a blue one', 'en'), ['red one', 'blue one']);
  });

  describe('in a live room', () => {
    let t: TestService;
    before(async () => {
      t = await startListeningService({ PALKIT_PAL_WORDS_PER_MINUTE: '3000' });
    });
    after(() => t.close());

    it('a German PAL asked "Welche Option empfehlen Sie?" shows and answers a German card', async () => {
      const pal = await insertPal(t, { canvas: {}, definition: { languages: ['de-DE'] } });
      const room = await insertConversation(t, { palId: pal, customGreeting: 'Hallo.' });
      const client = await RoomClient.join(room.conversationUrl, room.token);
      await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica');
      client.say('conversation.respond', { text: 'Welche Option empfehlen Sie?' });
      const call = await client.waitForEvent('conversation.tool_call', (m) => m.properties.name === 'canvas_show_question');
      const args = JSON.parse(call.properties.arguments);
      assert.equal(args.question, 'Wie möchten Sie weitermachen?');
      assert.deepEqual(
        args.options.map((o: { label: string }) => o.label),
        ['Erzählen Sie mir mehr', 'Zeigen Sie mir ein Beispiel', 'Etwas anderes'],
      );
      const line = await client.waitForEvent(
        'conversation.utterance',
        (m) => m.properties.role === 'replica' && m.properties.speech !== 'Hallo.',
      );
      assert.equal(line.properties.speech, 'Ich habe Ihnen die Optionen auf den Bildschirm gelegt.');
      const posted = await t.api(
        'POST',
        `/v2/conversations/${room.conversationId}/canvas/interactions`,
        {
          interaction_id: `ci_${call.properties.tool_call_id}_submit_1`,
          tool_call_id: call.properties.tool_call_id,
          component: 'canvas.question',
          component_version: 'v1',
          type: 'submit',
          value: { selected_option_ids: ['opt_1'], skipped: false },
        },
        { key: null },
      );
      assert.equal(posted.status, 200, JSON.stringify(posted.body));
      const ack = await client.waitForEvent(
        'conversation.utterance',
        (m) => m.properties.role === 'replica' && /gewählt/.test(m.properties.speech),
      );
      assert.equal(ack.properties.speech, 'Danke, Sie haben Erzählen Sie mir mehr gewählt.');
      client.close();
    });
  });
});
