import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { OTHER_KEY, startListeningService, type TestService } from '../../../helpers/service.js';
import { fetchBytes, signatureIsValid, startReceiver, waitForFinished } from '../../../helpers/media-gen.js';

const SPEECH_FIELDS = [
  'speech_id',
  'speech_name',
  'status',
  'script',
  'audio_url',
  'duration',
  'generation_progress',
  'error_details',
  'created_at',
  'updated_at',
].sort();

describe('speech', () => {
  let t: TestService;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  before(async () => {
    t = await startListeningService();
    receiver = await startReceiver();
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  it('synthesises MP3 by default, serves it, and calls back signed when ready', async () => {
    const created = await t.api('POST', '/v2/speech', {
      script: 'Good morning.',
      speech_name: 'Morning',
      callback_url: `${receiver.url}/ready`,
    });
    assert.equal(created.status, 200);
    assert.deepEqual(Object.keys(created.body).sort(), SPEECH_FIELDS);
    assert.equal(created.body.status, 'generating');
    assert.equal(created.body.generation_progress, '0/2');
    assert.equal(created.body.audio_url, null);

    const speech = await waitForFinished(t, `/v2/speech/${created.body.speech_id}`);
    assert.equal(speech.status, 'ready', speech.error_details);
    assert.equal(speech.generation_progress, '2/2');
    assert.equal(speech.speech_name, 'Morning');
    assert.ok(speech.duration > 0.3 && speech.duration < 5, `duration ${speech.duration}`);
    const audio = await fetchBytes(speech.audio_url);
    assert.equal(audio.status, 200);
    assert.equal(audio.contentType, 'audio/mpeg');
    const id3 = audio.bytes.subarray(0, 3).toString('latin1') === 'ID3';
    const frameSync = audio.bytes[0] === 0xff && (audio.bytes[1]! & 0xe0) === 0xe0;
    assert.ok(id3 || frameSync, 'an MP3 file');

    const callback = await receiver.next('/ready');
    assert.ok(await signatureIsValid(t, callback));
    assert.deepEqual(callback.body, speech);
  });

  it('takes text and language as aliases and makes WAV or Ogg on request', async () => {
    const wav = await t.api('POST', '/v2/speech', { text: 'Hola, buenos días.', language: 'es', audio_format: 'wav' });
    assert.equal(wav.status, 200);
    assert.equal(wav.body.script, 'Hola, buenos días.');
    assert.equal(wav.body.speech_name, 'Hola, buenos días.');
    const ogg = await t.api('POST', '/v2/speech', { script: 'Bonjour.', voice: 'FR', audio_format: 'ogg' });
    const readyWav = await waitForFinished(t, `/v2/speech/${wav.body.speech_id}`);
    assert.equal(readyWav.status, 'ready', readyWav.error_details);
    const wavFile = await fetchBytes(readyWav.audio_url);
    assert.equal(wavFile.contentType, 'audio/wav');
    assert.equal(wavFile.bytes.subarray(0, 4).toString('latin1'), 'RIFF');
    assert.equal(wavFile.bytes.subarray(8, 12).toString('latin1'), 'WAVE');
    const byteRate = wavFile.bytes.readUInt32LE(28);
    assert.ok(Math.abs((wavFile.bytes.length - 44) / byteRate - readyWav.duration) < 0.05, 'duration matches the audio');
    const readyOgg = await waitForFinished(t, `/v2/speech/${ogg.body.speech_id}`);
    assert.equal(readyOgg.status, 'ready', readyOgg.error_details);
    const oggFile = await fetchBytes(readyOgg.audio_url);
    assert.equal(oggFile.contentType, 'audio/ogg');
    assert.equal(oggFile.bytes.subarray(0, 4).toString('latin1'), 'OggS');
  });

  it('ends in error with error_details and an error callback for a voice the synthesiser lacks', async () => {
    const created = await t.api('POST', '/v2/speech', { script: 'Hi.', voice: 'zz-nope', callback_url: `${receiver.url}/error` });
    assert.equal(created.status, 200);
    const speech = await waitForFinished(t, `/v2/speech/${created.body.speech_id}`);
    assert.equal(speech.status, 'error');
    // The local voice is the native bridge or the one from npm, whichever this machine runs (auto): each names the voice.
    assert.match(speech.error_details, /voice "zz-nope" is not a voice of the local synthesiser|espeak-ng exited with 1.*voice/);
    assert.equal(speech.audio_url, null);
    const callback = await receiver.next('/error');
    assert.ok(await signatureIsValid(t, callback));
    assert.equal(callback.body.status, 'error');
    assert.equal(callback.body.error_details, speech.error_details);
  });

  it('rejects bad input with 400', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{}, /script/],
      [{ script: '' }, /script/],
      [{ script: ' \n ' }, /script/],
      [{ script: 'x'.repeat(5001) }, /5000/],
      [{ script: 'a', text: 'b' }, /text/],
      [{ script: 'Hi', audio_format: 'flac' }, /audio_format/],
      [{ script: 'Hi', voice: '-w /etc/passwd' }, /voice/],
      [{ script: 'Hi', voice: 'en us' }, /voice/],
      [{ script: 'Hi', callback_url: 'javascript:alert(1)' }, /callback_url/],
      [{ script: 'Hi', speech_name: '' }, /speech_name/],
    ];
    for (const [body, pattern] of cases) {
      const r = await t.api('POST', '/v2/speech', body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
      assert.match(r.body.error, pattern);
    }
    assert.equal((await t.api('POST', '/v2/speech', { script: 'Hi' }, { key: null })).status, 401);
  });

  it("lists in pages, renames, hides other owners' items, deletes with the audio", async () => {
    const { db } = t.service.deps;
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 11; i++) {
      await db
        .insertInto('speech')
        .values({
          speech_id: `slist${String(i).padStart(2, '0')}`,
          owner_id: 2,
          speech_name: `s${i}`,
          script: 's',
          voice: 'en-us',
          audio_format: null,
          status: 'error',
          generation_progress: '0/2',
          callback_url: null,
          audio_url: null,
          duration: null,
          error_details: 'x',
          created_at: new Date(base + i * 1000),
          updated_at: new Date(base + i * 1000),
        })
        .execute();
    }
    const first = await t.api('GET', '/v2/speech', undefined, { key: OTHER_KEY });
    assert.equal(first.status, 200);
    assert.equal(first.body.total_count, 11);
    assert.equal(first.body.data.length, 10);
    assert.equal(first.body.data[0].speech_name, 's10');
    assert.deepEqual(
      (await t.api('GET', '/v2/speech?page=2', undefined, { key: OTHER_KEY })).body.data.map((s: any) => s.speech_name),
      ['s0'],
    );
    assert.equal((await t.api('GET', '/v2/speech?limit=3&page=4', undefined, { key: OTHER_KEY })).body.data.length, 2);
    assert.equal((await t.api('GET', '/v2/speech?limit=500')).status, 400);

    assert.equal((await t.api('GET', '/v2/speech/slist00')).status, 404);
    assert.equal((await t.api('PATCH', '/v2/speech/slist00/name', { speech_name: 'x' })).status, 404);
    assert.equal((await t.api('DELETE', '/v2/speech/slist00')).status, 404);
    const renamed = await t.api('PATCH', '/v2/speech/slist00/name', { speech_name: 'Renamed' }, { key: OTHER_KEY });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.speech_name, 'Renamed');

    const ready = (await t.api('GET', '/v2/speech')).body.data.find((s: any) => s.status === 'ready');
    const deleted = await t.api('DELETE', `/v2/speech/${ready.speech_id}`);
    assert.equal(deleted.status, 200);
    assert.equal((await t.api('GET', `/v2/speech/${ready.speech_id}`)).status, 404);
    assert.equal((await fetch(ready.audio_url)).status, 404);
    assert.equal((await t.api('DELETE', `/v2/speech/${ready.speech_id}`)).status, 404);
  });

  it('documents its routes and paging parameters', async () => {
    const doc = (await t.api('GET', '/openapi.json', undefined, { key: null })).body;
    assert.ok(doc.paths['/v2/speech'].post && doc.paths['/v2/speech'].get);
    assert.ok(
      doc.paths['/v2/speech/{speech_id}'].get &&
        doc.paths['/v2/speech/{speech_id}'].delete &&
        doc.paths['/v2/speech/{speech_id}/name'].patch,
    );
    assert.deepEqual(doc.paths['/v2/speech'].get.parameters.map((p: any) => p.name).sort(), ['limit', 'page']);
    assert.ok(doc.components.schemas.CreateSpeech.properties.audio_format);
  });
});

describe('speech without the rendering tools', () => {
  it('speaks with only node on PATH (the WebAssembly voice), names the missing encoder, and the missing espeak-ng of the native voice', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'palkit-no-tools-'));
    // The service brings its own ffmpeg; PALKIT_FFMPEG pointing at nothing stands for a platform without one.
    const none = await startListeningService({ PALKIT_RENDER_PATH: empty, PALKIT_FFMPEG: join(empty, 'ffmpeg') });
    const native = await startListeningService({ PALKIT_RENDER_PATH: empty, PALKIT_LOCAL_VOICE: 'native' });
    try {
      const plain = await none.api('POST', '/v2/speech', { script: 'Hello, nothing but node here.' });
      const wav = await waitForFinished(none, `/v2/speech/${plain.body.speech_id}`);
      assert.equal(wav.status, 'ready', wav.error_details);
      assert.ok(wav.duration > 0.8 && wav.duration < 5, `duration ${wav.duration}`);
      const file = await fetchBytes(wav.audio_url);
      assert.equal(file.contentType, 'audio/wav');
      const samples = new Int16Array(
        file.bytes.buffer.slice(file.bytes.byteOffset + 44, file.bytes.byteOffset + file.bytes.length - ((file.bytes.length - 44) % 2)),
      );
      const rms = Math.sqrt(samples.reduce((sum, v) => sum + v * v, 0) / samples.length) / 32768;
      assert.ok(rms > 0.02, `audible (rms ${rms})`);

      const mp3 = await none.api('POST', '/v2/speech', { script: 'Hi.', audio_format: 'mp3' });
      const noEncoder = await waitForFinished(none, `/v2/speech/${mp3.body.speech_id}`);
      assert.equal(noEncoder.status, 'error');
      assert.match(noEncoder.error_details, /ffmpeg .*not installed/);

      const a = await native.api('POST', '/v2/speech', { script: 'Hi.' });
      const failed = await waitForFinished(native, `/v2/speech/${a.body.speech_id}`);
      assert.equal(failed.status, 'error');
      assert.match(failed.error_details, /espeak-ng \(the speech synthesiser\) is not installed/);
    } finally {
      await none.close();
      await native.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
