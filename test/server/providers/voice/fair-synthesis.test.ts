// Fairness by cost, not by count: text reaches the synthesiser in bounded pieces, the local voice serves
// the room that has had the least engine time first, and background work (speech items) yields to rooms.
// Engine time is the test's clock; the speakers are stand-ins that finish when the test says.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FairQueue } from '../../../../src/server/providers/voice/fair-queue.js';
import { EspeakSynthesizer } from '../../../../src/server/providers/voice/espeak.js';
import type { Speaker, SpeakerHooks, SpeakerRequest } from '../../../../src/server/providers/voice/espeak/instance.js';
import { chunksOf, MAX_PIECE, sentencesOf } from '../../../../src/server/providers/voice/speech-pieces.js';
import { createLogger } from '../../../../src/server/platform/log.js';

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}

async function all(text: string): Promise<string[]> {
  const out: string[] = [];
  for await (const piece of sentencesOf(once(text))) out.push(piece);
  return out;
}

describe('text in bounded pieces', () => {
  it('cuts a 3,990-character echo without a full stop into pieces of at most 200 characters at word boundaries, losing nothing', async () => {
    const words = Array.from({ length: 700 }, (_, i) => ['please', 'repeat', 'this', 'long', 'echo'][i % 5])
      .join(' ')
      .slice(0, 3_990);
    const pieces = await all(words);
    assert.ok(pieces.length >= 20, `${pieces.length} pieces`);
    for (const piece of pieces) assert.ok(piece.length <= MAX_PIECE, `a piece of ${piece.length} characters`);
    assert.equal(pieces.join(' '), words.trim());
    for (const piece of pieces.slice(0, -1)) assert.match(piece, /(please|repeat|this|long|echo)$/, 'cut between words');
  });

  it('a long sentence with a full stop, clauses, or no spaces at all is bounded too', async () => {
    const clauses = Array.from({ length: 30 }, (_, i) => `clause number ${i} goes on a little`).join(', ') + '.';
    const pieces = await all(clauses);
    for (const piece of pieces) assert.ok(piece.length <= MAX_PIECE, `a piece of ${piece.length} characters`);
    assert.ok(
      pieces.slice(0, -1).every((p) => p.endsWith(',')),
      'cut after a clause',
    );
    const japanese = 'あ'.repeat(1_000);
    assert.deepEqual(
      (await all(japanese)).map((p) => p.length),
      [200, 200, 200, 200, 200],
    );
    assert.ok(
      chunksOf('😀'.repeat(300)).every((p) => p.length <= MAX_PIECE && !/[\ud800-\udbff]$/.test(p)),
      'never inside a surrogate pair',
    );
    assert.deepEqual(chunksOf('Short one. And another.'), ['Short one.', 'And another.']);
  });
});

describe('the fair queue, by cost', () => {
  it("a room's one short sentence is served before another room's next long chunk, however many it has", () => {
    const q = new FairQueue<string>(8, { cost: (item) => item.length });
    const long = 'x'.repeat(200);
    let next = 0;
    for (let i = 0; i < 8; i++) q.push('a', `${long}${next++}`);
    const served: string[] = [];
    for (let i = 0; i < 3; i++) {
      served.push(q.shift()!.slice(-1));
      q.push('a', `${long}${next++}`); // room a keeps its lane full: 20 long chunks in all
    }
    q.push('b', 'Hi.');
    assert.equal(q.shift(), 'Hi.', 'room b goes before room a');
    while (q.size) q.shift();
    assert.equal(q.size, 0);
  });

  it('among rooms that stand level, a short sentence goes before long chunks, however many rooms wait with them', () => {
    const q = new FairQueue<string>(8, { cost: (item) => item.length });
    const long = 'x'.repeat(200);
    // Thirty rooms start long echoes at the same moment as a bystander asks a short question.
    for (let i = 0; i < 30; i++) q.push(`echo${i}`, `${long}${i}`);
    q.push('bystander', 'Are you there?');
    assert.equal(q.shift(), 'Are you there?');
  });

  it('two busy rooms share by cost: short sentences are served several times as often as long ones', () => {
    const q = new FairQueue<string>(8, { cost: (item) => item.length });
    for (let i = 0; i < 8; i++) {
      q.push('long', 'L'.repeat(200));
      q.push('short', 'S'.repeat(40));
    }
    const firstSix = Array.from({ length: 6 }, () => q.shift()![0]).join('');
    assert.equal(firstSix.replace(/S/g, '').length, 1, `served ${firstSix}`);
  });

  it('charges measured cost: a lane whose item took longer than estimated waits longer', () => {
    const q = new FairQueue<string>(8, { cost: () => 10 });
    q.push('a', 'a1');
    q.push('a', 'a2');
    q.push('b', 'b1');
    q.push('b', 'b2');
    assert.equal(q.shift(), 'a1');
    q.charge('a', 90); // a1 took 100, not 10
    assert.deepEqual([q.shift(), q.shift(), q.shift()], ['b1', 'b2', 'a2']);
  });

  it('a room back from a pause starts level with the others, not with banked credit', () => {
    const q = new FairQueue<string>(8, { cost: () => 10 });
    q.push('quiet', 'q1');
    assert.equal(q.shift(), 'q1');
    for (let i = 0; i < 8; i++) q.push('busy', `b${i}`);
    for (let i = 0; i < 5; i++) q.shift();
    q.push('quiet', 'q2');
    q.push('quiet', 'q3');
    assert.deepEqual([q.shift(), q.shift(), q.shift()], ['q2', 'b5', 'q3'], 'turns alternate once level');
  });

  it('a background lane is served only when no live lane is ready', () => {
    const q = new FairQueue<string>(8, { background: (lane) => lane.startsWith('bg') });
    q.push('bg-owner2', 'speech1');
    q.push('room', 'r1');
    q.push('room', 'r2');
    assert.deepEqual([q.shift(), q.shift()], ['r1', 'r2']);
    assert.equal(
      q.shift((lane) => lane !== 'bg-owner2'),
      undefined,
    );
    assert.equal(q.shift(), 'speech1');
  });
});

/** Stand-in speakers: a request runs until the test finishes it, with the test's clock. */
function standIns() {
  const running = new Map<Speaker, SpeakerRequest>();
  const hooksOf = new Map<Speaker, SpeakerHooks>();
  const started: string[] = [];
  const factory = (hooks: SpeakerHooks): Speaker => {
    const speaker: Speaker = {
      id: undefined,
      sampleRate: 16_000,
      warm: true,
      run(request) {
        running.set(speaker, request);
        started.push(request.text);
      },
      cancel() {},
      stop() {},
    };
    hooksOf.set(speaker, hooks);
    return speaker;
  };
  /** Finishes the request whose text starts with `prefix`. */
  const finish = (prefix: string) => {
    const entry = [...running].find(([, r]) => r.text.startsWith(prefix));
    assert.ok(entry, `nothing running starts with ${prefix}: ${[...running.values()].map((r) => r.text.slice(0, 12)).join(', ')}`);
    const [speaker, request] = entry;
    running.delete(speaker);
    request.onEvent({ type: 'audio', samples: new Int16Array(160) });
    request.onEvent({ type: 'end' });
    hooksOf.get(speaker)!.onIdle(speaker, request);
  };
  return { factory, started, finish, running };
}

describe('the local voice, by engine time', () => {
  const log = createLogger('error');
  const voice = { language: 'en' };

  it("a room's first sentence goes to the next free speaker ahead of another room's queued long chunks", async () => {
    const clock = { now: 0 };
    const { factory, started, finish } = standIns();
    const engine = new EspeakSynthesizer(log, { speakerFactory: factory, speakers: 1, now: () => clock.now });
    const signal = new AbortController().signal;
    const flood = engine.lane('flooder');
    const long = (i: number) => `chunk ${i} ${'word '.repeat(38)}`;
    const waiting = [];
    for (let i = 0; i < 3; i++) waiting.push(flood.synthesize(long(i), voice, signal));
    clock.now += 400;
    finish('chunk 0');
    for (let i = 3; i < 9; i++) waiting.push(flood.synthesize(long(i), voice, signal));
    const bystander = engine.lane('bystander').synthesize('Hello there.', voice, signal);
    clock.now += 400;
    finish('chunk 1');
    assert.equal(started.at(-1), 'Hello there.', `started: ${started.map((t) => t.slice(0, 8)).join(' | ')}`);
    finish('Hello');
    await bystander;
    for (let i = 2; i < 9; i++) finish(`chunk ${i}`);
    await Promise.all(waiting);
    engine.close();
  });

  it('says how many sentences wait and how long the oldest has, for /metrics', async () => {
    const clock = { now: 0 };
    const { factory, finish } = standIns();
    const engine = new EspeakSynthesizer(log, { speakerFactory: factory, speakers: 1, now: () => clock.now });
    const signal = new AbortController().signal;
    assert.deepEqual(engine.backlog, { sentences: 0, oldestWaitMs: 0 });
    const said = [engine.lane('a').synthesize('First room.', voice, signal)];
    clock.now += 100;
    said.push(engine.lane('b').synthesize('Second room.', voice, signal), engine.lane('a').synthesize('First again.', voice, signal));
    clock.now += 250;
    assert.deepEqual(engine.backlog, { sentences: 2, oldestWaitMs: 250 }, 'the first is being said; two wait, queued 250 ms ago');
    finish('First room');
    assert.equal(engine.backlog.sentences, 1);
    finish('Second room');
    finish('First again');
    await Promise.all(said);
    assert.deepEqual(engine.backlog, { sentences: 0, oldestWaitMs: 0 });
    engine.close();
  });

  it("later pieces of utterances under way never hold the last free speaker: a room's first words find it", async () => {
    const clock = { now: 0 };
    const { factory, started, finish, running } = standIns();
    const engine = new EspeakSynthesizer(log, { speakerFactory: factory, speakers: 2, now: () => clock.now });
    const signal = new AbortController().signal;
    const echoes = engine.lane('echoes');
    const others = engine.lane('other-echoes');
    const pieces = [1, 2, 3].flatMap((i) => [
      echoes.synthesize(`echo ${i} ${'word '.repeat(38)}`, { ...voice, continues: true }, signal),
      others.synthesize(`other ${i} ${'word '.repeat(38)}`, { ...voice, continues: true }, signal),
    ]);
    assert.equal(running.size, 1, 'one speaker is kept for first pieces');
    const reply = engine.lane('bystander').synthesize('Are you there?', voice, signal);
    assert.equal(started.at(-1), 'Are you there?', `started: ${started.map((t) => t.slice(0, 8)).join(' | ')}`);
    finish('Are you');
    await reply;
    while (running.size) finish([...running.values()][0]!.text);
    await Promise.all(pieces);
    engine.close();
  });

  it('speech items wait while a room has a sentence waiting, and never hold the last free speaker', async () => {
    const clock = { now: 0 };
    const { factory, started, finish, running } = standIns();
    const engine = new EspeakSynthesizer(log, { speakerFactory: factory, speakers: 2, now: () => clock.now });
    const signal = new AbortController().signal;
    const items = [1, 2, 3].map((i) => engine.synthesizeAs(`owner-${i}`, `speech item ${i}`, 'en-us', signal));
    assert.equal(running.size, 1, 'one speaker is kept for the rooms');
    const room = engine.lane('room').synthesize('A live reply.', voice, signal);
    assert.equal(started.at(-1), 'A live reply.', 'the room went to the free speaker');
    const second = engine.lane('room2').synthesize('Another reply.', voice, signal);
    finish('speech item 1');
    assert.equal(started.at(-1), 'Another reply.', 'a waiting room goes before the next speech item');
    finish('A live');
    finish('Another');
    finish('speech item 2');
    finish('speech item 3');
    await Promise.all([room, second, ...items]);
    engine.close();
  });
});
