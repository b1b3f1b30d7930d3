// The local voice's bridges as the service keeps them: built into a private folder and checked (owner,
// mode, SHA-256) before every start, shared round-robin by rooms, cancelled on interrupt, and replaced
// when killed — the sentence in flight resumes on the new bridge without a gap or a repeat.
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, lstatSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { EspeakSynthesizer } from '../../../../src/server/providers/voice/espeak.js';
import { FairQueue } from '../../../../src/server/providers/voice/fair-queue.js';
import type { SynthesisStream } from '../../../../src/server/providers/voice/synthesis.js';

const log = { info: () => undefined, error: () => undefined, debug: () => undefined } as never;
const LONG =
  'Delivery within Germany usually takes three to five working days, and a parcel to Austria or Switzerland one or two days more, depending on the carrier';

async function samplesOf(stream: SynthesisStream): Promise<number> {
  let n = 0;
  for await (const event of stream.events) if (event.type === 'audio') n += event.samples.length;
  return n;
}

const never = () => new AbortController().signal;

describe('the fair queue', () => {
  it('serves lanes in turn, bounds each lane, puts a retry first and skips lanes that are busy', () => {
    const q = new FairQueue<string>(3);
    for (const item of ['a1', 'a2', 'a3']) assert.ok(q.push('a', item));
    assert.equal(q.push('a', 'a4'), false, 'a full lane refuses');
    q.push('b', 'b1');
    q.push('c', 'c1');
    assert.deepEqual([q.shift(), q.shift(), q.shift(), q.shift()], ['a1', 'b1', 'c1', 'a2']);
    q.push('a', 'retry', true);
    q.push('b', 'b2');
    assert.equal(
      q.shift((lane) => lane !== 'a'),
      'b2',
    );
    q.remove('a', 'a3');
    assert.deepEqual([q.shift(), q.shift(), q.size], ['retry', undefined, 0]);
  });
});

describe('the eSpeak bridge pool', () => {
  const data = mkdtempSync(join(tmpdir(), 'palkit-voice-test-'));
  after(() => rmSync(data, { recursive: true, force: true }));

  it('builds its bridge into a private folder under the data, and rebuilds a binary that was swapped, before running it', async () => {
    const marker = join(data, 'swapped-ran');
    const first = new EspeakSynthesizer(log, { engine: 'native', dataDir: data });
    assert.ok((await samplesOf(await first.synthesize('Hello.', { language: 'en' }, never()))) > 0);
    first.close();
    const folder = join(data, 'voice');
    assert.equal(lstatSync(folder).mode & 0o777, 0o700);
    const binary = readdirSync(folder).find((f) => /^palkit-espeak-[0-9a-f]{12}$/.test(f))!;
    assert.ok(binary, 'the bridge is in the private folder');
    // The binary swapped (its recorded digest left as it was), the folder opened to everyone.
    writeFileSync(join(folder, 'swap'), `#!/bin/sh\ntouch ${marker}\nexit 1\n`, { mode: 0o700 });
    renameSync(join(folder, 'swap'), join(folder, binary));
    chmodSync(folder, 0o777);
    const second = new EspeakSynthesizer(log, { engine: 'native', dataDir: data });
    try {
      assert.ok(
        (await samplesOf(await second.synthesize('Hello again.', { language: 'en' }, never()))) > 0,
        'it speaks with a rebuilt bridge',
      );
      assert.equal(existsSync(marker), false, 'the swapped binary ran');
      assert.equal(lstatSync(folder).mode & 0o777, 0o700, 'the folder is private again');
    } finally {
      second.close();
    }
  });

  it('does not run a binary owned by another user', { skip: process.getuid?.() !== 0 && 'only root can give a file away' }, async () => {
    const folder = join(data, 'voice');
    const binary = join(
      folder,
      readdirSync(folder).find((f) => /^palkit-espeak-[0-9a-f]{12}$/.test(f))!,
    );
    chownSync(binary, 65534, 65534);
    const synthesizer = new EspeakSynthesizer(log, { engine: 'native', dataDir: data });
    try {
      assert.ok((await samplesOf(await synthesizer.synthesize('Hello.', { language: 'en' }, never()))) > 0);
      assert.equal(lstatSync(binary).uid, process.getuid!(), 'the binary was built again by the service');
    } finally {
      synthesizer.close();
    }
  });

  it('a bridge killed in the middle of a sentence: a new one finishes it, without a gap or a repeat', async () => {
    const synthesizer = new EspeakSynthesizer(log, { engine: 'native', dataDir: data, speakers: 1 });
    try {
      const text = LONG.repeat(6);
      const whole = await samplesOf(await synthesizer.synthesize(text, { language: 'en' }, never()));
      for (const signal of ['SIGKILL', 'SIGSEGV'] as const) {
        const sentences = synthesizer.work.sentences;
        const stream = await synthesizer.synthesize(text, { language: 'en' }, never());
        let n = 0;
        let killed = false;
        for await (const event of stream.events) {
          if (event.type !== 'audio') continue;
          n += event.samples.length;
          if (!killed && n >= 10_000) {
            const [pid] = synthesizer.bridgePids;
            process.kill(pid!, signal);
            killed = true;
          }
        }
        assert.ok(killed);
        assert.equal(synthesizer.work.sentences - sentences, 2, 'the sentence was said again by a new bridge');
        // eSpeak says the same text the same way to within ~0.1% (a few thousand samples here); a repeat or a
        // gap would be the 10,000+ samples heard before the kill.
        assert.ok(Math.abs(n - whole) < 4000, `after ${signal}: ${n} samples against ${whole}`);
      }
      // And the pool goes on.
      const again = await samplesOf(await synthesizer.synthesize(text, { language: 'en' }, never()));
      assert.ok(Math.abs(again - whole) < 4000, `${again} samples against ${whole}`);
    } finally {
      synthesizer.close();
    }
  });

  it('serves rooms in turn: one room with many sentences waiting does not hold up another', async () => {
    const synthesizer = new EspeakSynthesizer(log, { engine: 'native', dataDir: data, speakers: 1 });
    try {
      const order: string[] = [];
      const say = async (room: string, i: number) => {
        await samplesOf(await synthesizer.lane(room).synthesize(LONG, { language: 'en' }, never()));
        order.push(`${room}${i}`);
      };
      const busy = [0, 1, 2, 3, 4, 5].map((i) => say('flood', i));
      const other = say('quiet', 0);
      await Promise.all([...busy, other]);
      assert.ok(order.indexOf('quiet0') <= 2, `served: ${order.join(' ')}`);
      await assert.rejects(Promise.all(Array.from({ length: 20 }, (_, i) => say('flood', i))), /too many sentences/, 'a lane is bounded');
    } finally {
      synthesizer.close();
    }
  });

  it('a sentence cancelled while waiting never reaches a bridge, and one being said stops there', async () => {
    const synthesizer = new EspeakSynthesizer(log, { engine: 'native', dataDir: data, speakers: 1 });
    try {
      const text = LONG.repeat(4);
      const whole = await samplesOf(await synthesizer.synthesize(text, { language: 'en' }, never()));
      const before = { ...synthesizer.work };
      const cut = Array.from({ length: 6 }, () => new AbortController());
      const streams = await Promise.all(cut.map((c) => synthesizer.lane('room').synthesize(text, { language: 'en' }, c.signal)));
      for (const c of cut) c.abort();
      for (const s of streams) await samplesOf(s);
      assert.ok(
        (await samplesOf(await synthesizer.lane('room').synthesize('Next.', { language: 'en' }, never()))) > 0,
        'the room speaks on',
      );
      assert.equal(synthesizer.work.sentences - before.sentences, 2, 'only the first cut sentence and the next one reached the bridge');
      const cutShort = synthesizer.work.samples - before.samples;
      assert.ok(cutShort < whole / 2, `the cut sentence and the next made ${cutShort} samples; the whole sentence has ${whole}`);
    } finally {
      synthesizer.close();
    }
  });

  it('speaks a text that starts with NUL or holds other control characters', async () => {
    const synthesizer = new EspeakSynthesizer(log, { engine: 'native', dataDir: data });
    try {
      assert.ok((await samplesOf(await synthesizer.synthesize('\u0000Hello there.', { language: 'en' }, never()))) > 0);
      assert.ok((await samplesOf(await synthesizer.synthesize('Line one\u0000\u0007\u2028line two.', { language: 'en' }, never()))) > 0);
      assert.equal(
        await samplesOf(await synthesizer.synthesize('\u0000\u0001', { language: 'en' }, never())),
        0,
        'nothing left to say ends at once',
      );
    } finally {
      synthesizer.close();
    }
  });
});
