// The PAL hears the visitor: microphone frames over the room's WebSocket, voice activity, the turn sent
// to an OpenAI-compatible transcription endpoint (a fake speaking its multipart/JSON wire format), and
// the words answered; a failing recogniser ends in a clear notice, never a silent call.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../../src/server/platform/config.js';
import { transcriber, TranscriptionError } from '../../../../src/server/live/ears/transcription.js';
import { startFakeSpeechServices, type FakeSpeechServices } from '../../../helpers/fake-speech.js';
import { insertConversation, insertPal, RoomClient } from '../../../helpers/live-fixtures.js';
import { startListeningService, onPostgres, type TestService } from '../../../helpers/service.js';
import { MICROPHONE_RATE, speech, talk } from '../../../helpers/voice.js';
import { createGuardedFetch } from '../../../../src/server/platform/net/guarded-fetch.js';

const RATE = MICROPHONE_RATE;

// The subject is not the database: the PostgreSQL leg of the server suite leaves this file out.
const skip = onPostgres && 'PGlite only: transcribing the heard turn; turns are stored as transcript-writer.test stores them';

describe('the PAL hears the visitor', { skip }, () => {
  let fake: FakeSpeechServices;
  let t: TestService;
  let palId: string;
  const silence = new Int16Array(RATE);
  before(async () => {
    fake = await startFakeSpeechServices({ transcript: 'When do you open tomorrow?' });
    t = await startListeningService({
      PALKIT_STT_BASE_URL: `${fake.url}/v1/`,
      PALKIT_STT_API_KEY: 'sk-stt',
      PALKIT_STT_MODEL: 'whisper-test',
      PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8',
      PALKIT_PAL_WORDS_PER_MINUTE: '400',
    });
    palId = await insertPal(t, { pipelineMode: 'echo', definition: { languages: ['de'] } });
  });
  after(async () => {
    await t.close();
    await fake.close();
  });

  it('the transcription client posts the turn as a WAV file with model, language and key, and reads the text', async () => {
    const config = loadConfig({ PALKIT_STT_BASE_URL: `${fake.url}/v1`, PALKIT_STT_API_KEY: 'sk-1', PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8' });
    const transcribe = transcriber({ config, fetch: createGuardedFetch(config.outboundAllow) })!;
    const soFar: string[] = [];
    const text = await transcribe(speech('hello'), RATE, 'en', new AbortController().signal, (words) => soFar.push(words));
    assert.equal(text, 'When do you open tomorrow?');
    // Streamed as OpenAI streams it: each delta adds to the words so far.
    assert.deepEqual(soFar, ['When ', 'When do ', 'When do you ', 'When do you open ', 'When do you open tomorrow?']);
    const request = fake.transcriptions.at(-1)!;
    assert.deepEqual(
      { ...request, audioBytes: request.audioBytes > 44 },
      { authorization: 'Bearer sk-1', model: 'whisper-1', language: 'en', audioBytes: true, stream: true },
    );
    // A recogniser that does not stream (whisper-1 ignores `stream`) answers JSON: the same text.
    fake.streams = false;
    assert.equal(await transcribe(speech('hello'), RATE, 'en', new AbortController().signal), 'When do you open tomorrow?');
    fake.streams = true;
    fake.failWith = 503;
    await assert.rejects(
      transcribe(speech('hello'), RATE, 'en', new AbortController().signal),
      (e) => e instanceof TranscriptionError && /503: the fake was told to fail/.test(e.message),
    );
    fake.failWith = null;
  });

  it("in a room: the visitor speaks, the service says so, transcribes the turn in the PAL's language and answers it", async () => {
    const room = await insertConversation(t, { palId, customGreeting: 'Hallo.' });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    const joined = client.frames.find((f) => f.type === 'joined');
    assert.ok(joined?.type === 'joined' && joined.transcribes === true && joined.language === 'de');
    await client.waitForEvent('conversation.replica.stopped_speaking', () => true, 5000);
    const before = fake.transcriptions.length;
    await talk(client, silence);
    await talk(client, speech('When do you open tomorrow?'));
    await talk(client, silence);
    await client.waitForEvent('conversation.user.started_speaking');
    const stopped = await client.waitForEvent('conversation.user.stopped_speaking');
    // The mark says how long the visitor had been silent: the pause that ended this finished sentence.
    const pause = stopped.properties.silence_ms as number;
    assert.ok(pause >= 200 && pause <= 2000, `silence_ms ${pause}`);
    const heard = await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'user', 5000);
    assert.equal(heard.properties.speech, 'When do you open tomorrow?');
    await client.waitForEvent(
      'conversation.utterance',
      (m) => m.properties.role === 'replica' && m.properties.speech === 'When do you open tomorrow?',
      10_000,
    );
    const request = fake.transcriptions.slice(before)[0]!;
    assert.equal(request.language, 'de');
    assert.equal(request.model, 'whisper-test');
    assert.equal(request.authorization, 'Bearer sk-stt');
    const seconds = (request.audioBytes - 44) / 2 / RATE;
    assert.ok(seconds > 1 && seconds < 4, `the turn's audio (${seconds} s) reached the recogniser without the silence around it`);
    client.close();
  });

  it('a PAL created without languages has the spoken language detected, not assumed English', async () => {
    const anyLanguage = await insertPal(t, { pipelineMode: 'echo', definition: {} });
    const room = await insertConversation(t, { palId: anyLanguage, customGreeting: 'Hello.' });
    const client = await RoomClient.join(room.conversationUrl, room.token);
    // No language for the page's recognition either: it keeps to the visitor's own.
    const joined = client.frames.find((f) => f.type === 'joined');
    assert.ok(joined?.type === 'joined' && joined.language === undefined, JSON.stringify(joined));
    await client.waitForEvent('conversation.replica.stopped_speaking', () => true, 5000);
    const before = fake.transcriptions.length;
    await talk(client, silence);
    await talk(client, speech('Wie lange dauert die Lieferung?'));
    await talk(client, silence);
    await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'user', 5000);
    assert.equal(fake.transcriptions.slice(before)[0]!.language, '', 'no language field: the recogniser detects it');
    client.close();
  });

  it('a failing recogniser tells the visitor to type instead', async () => {
    fake.failWith = 500;
    const room = await insertConversation(t, { palId, customGreeting: 'Hallo.' });
    const client = await RoomClient.join(room.conversationUrl, room.token);
    await client.waitForEvent('conversation.replica.stopped_speaking', () => true, 5000);
    await talk(client, silence);
    await talk(client, speech('Is anybody there?'));
    await talk(client, silence);
    const notice = await client.waitFor((f) => f.type === 'notice', 5000);
    assert.deepEqual(notice.type === 'notice' && notice.code, 'hearing_unavailable');
    fake.failWith = null;
    client.close();
  });

  it('a turn the recogniser finds no words in tells the visitor it was missed, never silence', async () => {
    const words = fake.transcript;
    fake.transcript = '  ';
    try {
      const room = await insertConversation(t, { palId, customGreeting: 'Hallo.' });
      const client = await RoomClient.join(room.conversationUrl, room.token);
      await client.waitForEvent('conversation.replica.stopped_speaking', () => true, 5000);
      await talk(client, silence);
      await talk(client, speech('mumble'));
      await talk(client, silence);
      await client.waitForEvent('conversation.user.stopped_speaking');
      const notice = await client.waitFor((f) => f.type === 'notice', 5000);
      assert.equal(notice.type === 'notice' && notice.code, 'not_heard');
      client.close();
    } finally {
      fake.transcript = words;
    }
  });
});
