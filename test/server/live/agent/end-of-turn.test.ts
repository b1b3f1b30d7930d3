// How long a pause ends the visitor's turn, from the words heard so far; and the streamed recogniser's
// answer as it arrives (server-sent events in any chunking, or garbage), which must end in text or a
// TranscriptionError, never anything else.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { pauseToEndTurn, SENTENCE_END_MS, TRAILING_MS, turnEnding, UNSURE_MS } from '../../../../src/server/live/agent/end-of-turn.js';
import { sseData } from '../../../../src/server/providers/openai/sse.js';
import { PAUSE_MS } from '../../../../src/server/live/ears/vad.js';

describe('end of turn from the words so far', () => {
  it('a finished sentence ends the turn at the pause already heard', () => {
    for (const words of [
      'What time does the shop open on Sundays?',
      'Please tell me about the refund policy.',
      'Thanks!',
      'What is it for?',
      'Do you know when?',
      'Wie spät ist es?',
      '今日は何曜日ですか？',
    ]) {
      assert.equal(turnEnding(words), 'sentence-end', words);
    }
    assert.equal(pauseToEndTurn('Is it open today?'), SENTENCE_END_MS);
    assert.ok(SENTENCE_END_MS >= PAUSE_MS && SENTENCE_END_MS < UNSURE_MS);
  });

  it('words that trail off wait long, even when the recogniser closed them with a full stop', () => {
    for (const words of [
      'I would like to book a table for',
      'I would like to book a table for.',
      'Could you tell me um.',
      'Could you tell me, um?',
      'My order number is.',
      'What is the difference between the',
      'So,',
      'I was thinking that...',
      'and then…',
      'Well —',
    ]) {
      assert.equal(turnEnding(words), 'trailing', words);
    }
    assert.equal(pauseToEndTurn('I need a table for.'), TRAILING_MS);
  });

  it("trailing words and fillers are the conversation language's own", () => {
    const trailing: Array<[string, string]> = [
      ['de', 'Ich hätte gern einen Tisch für.'],
      ['de', 'Können Sie mir sagen, ob und'],
      ['de', 'Ich suche äh.'],
      ['fr', 'Je voudrais réserver une table pour.'],
      ['fr', 'Je cherche l’'],
      ['fr', 'Et euh.'],
      ['es', 'Quisiera reservar una mesa para.'],
      ['es', 'Busco el.'],
      ['it', 'Vorrei prenotare un tavolo per.'],
      ['pt-BR', 'Eu gostaria de saber se.'],
      ['nl', 'Ik wil graag een tafel voor twee en.'],
      ['en-GB', 'I would like the.'],
    ];
    for (const [language, words] of trailing) assert.equal(turnEnding(words, language), 'trailing', `${language}: ${words}`);
    const over: Array<[string, string]> = [
      // A German separable prefix or a French pronoun may close a sentence: these are over.
      ['de', 'Rufen Sie mich bitte morgen an.'],
      ['de', 'Das habe ich.'],
      ['fr', 'Merci, chez nous.'],
      ['nl', 'Ik bel je morgen op.'],
      // Words that trail off in English may end a sentence elsewhere: "so" and "also" in German.
      ['de', 'Das ist so.'],
      ['de', 'Ich komme also.'],
    ];
    for (const [language, words] of over) assert.notEqual(turnEnding(words, language), 'trailing', `${language}: ${words}`);
    assert.equal(turnEnding('Das ist so.', 'de'), 'sentence-end');
    assert.equal(turnEnding('Das ist so.', 'en'), 'trailing');
    // A language without lists goes by punctuation alone.
    assert.equal(turnEnding('Jag vill boka ett bord för.', 'sv'), 'sentence-end');
    assert.equal(turnEnding('Jag vill boka ett bord,', 'sv'), 'trailing');
    assert.equal(pauseToEndTurn('Je voudrais une table pour.', 'fr'), TRAILING_MS);
    assert.equal(pauseToEndTurn('Je voudrais une table pour.', 'en'), SENTENCE_END_MS);
  });

  it('anything else keeps the usual 600 ms', () => {
    for (const words of ['', '   ', 'hello there', 'opening hours', '42']) assert.equal(turnEnding(words), 'unsure', JSON.stringify(words));
    assert.equal(pauseToEndTurn('opening hours'), UNSURE_MS);
    assert.equal(UNSURE_MS, 600);
  });

  it('any text at all gets one of the three waits, at once, looking only at its end', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.string({ maxLength: 10_000 }), (tail, head) => {
        const wait = pauseToEndTurn(tail);
        assert.ok([SENTENCE_END_MS, TRAILING_MS, UNSURE_MS].includes(wait));
        // A long turn is judged by its last words: what came long before does not change the wait.
        assert.equal(pauseToEndTurn(`${head}${' '.repeat(200)}${tail}`), pauseToEndTurn(` ${tail}`));
      }),
      { numRuns: 500 },
    );
  });
});

async function* chunks(text: string, cuts: number[]): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length)].sort((a, b) => a - b)) {
    yield bytes.subarray(at, cut);
    at = cut;
  }
  yield bytes.subarray(at);
}

async function collect(body: AsyncIterable<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for await (const data of sseData(body)) out.push(data);
  return out;
}

describe('server-sent events of a streamed transcription', () => {
  const stream = [
    'event: transcript.text.delta\r\ndata: {"type":"transcript.text.delta","delta":"When"}\r\n\r\n',
    ': keep-alive\n\n',
    'data: {"type":"transcript.text.delta",\ndata: "delta":" do you open?"}\n\n',
    'event: transcript.text.done\ndata: {"type":"transcript.text.done","text":"When do you open?"}\n\n',
  ].join('');
  const expected = [
    '{"type":"transcript.text.delta","delta":"When"}',
    '{"type":"transcript.text.delta",\n"delta":" do you open?"}',
    '{"type":"transcript.text.done","text":"When do you open?"}',
  ];

  it("reads each event's data (CRLF or LF, comments, multi-line data) however the bytes are cut", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(stream.length), { maxLength: 12 }), async (cuts) => {
        assert.deepEqual(await collect(chunks(stream, cuts)), expected);
      }),
      { numRuns: 300 },
    );
  });

  it('any bytes at all end in events or an error, and an endless line is refused', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), fc.array(fc.nat(2000), { maxLength: 6 }), async (bytes, cuts) => {
        const body = (async function* () {
          let at = 0;
          for (const cut of [...cuts].sort((a, b) => a - b)) {
            yield bytes.subarray(at, Math.max(at, cut));
            at = Math.max(at, cut);
          }
          yield bytes.subarray(at);
        })();
        const out = await collect(body);
        assert.ok(out.every((d) => typeof d === 'string'));
      }),
      { numRuns: 300 },
    );
    const endless = (async function* () {
      for (let i = 0; i < 100; i++) yield new TextEncoder().encode(`data: ${'x'.repeat(10_000)}`);
    })();
    await assert.rejects(collect(endless), /too long/);
  });
});
