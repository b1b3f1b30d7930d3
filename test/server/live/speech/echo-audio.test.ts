// The echo pipeline's audio mode: `conversation.echo` with base64 PCM chunks is said as it arrives, in
// the PAL's voice stream (audio frames with the mouth opening on loud slices), then the PAL falls silent.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startListeningService, onPostgres, type TestService } from '../../../helpers/service.js';
import { insertConversation, insertPal, RoomClient } from '../../../helpers/live-fixtures.js';

const RATE = 24000;

/** `ms` of 16-bit PCM: a tone, or silence. */
function pcm(ms: number, tone: boolean): Buffer {
  const samples = Math.round((RATE * ms) / 1000);
  const bytes = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) bytes.writeInt16LE(tone ? Math.round(16000 * Math.sin((2 * Math.PI * 300 * i) / RATE)) : 0, i * 2);
  return bytes;
}

// The subject is not the database: the PostgreSQL leg of the server suite leaves this file out.
const skip = onPostgres && 'PGlite only: the audio said in the voice stream';

describe('echo audio', { skip }, () => {
  let t: TestService;
  let palId: string;
  before(async () => {
    t = await startListeningService({ PALKIT_ROOM_POLL_MS: '200' });
    palId = await insertPal(t, { pipelineMode: 'echo' });
  });
  after(() => t.close());

  it('says base64 PCM chunks of one inference_id as they arrive, mouth open on the loud parts, until done', async () => {
    const room = await insertConversation(t, { palId, customGreeting: 'Hi.' });
    const client = await RoomClient.join(room.conversationUrl, room.token);
    await client.waitForEvent('conversation.replica.stopped_speaking');
    const before = client.audio.length;
    // 400 ms of tone split mid-sample across messages, then 200 ms of silence.
    const audio = Buffer.concat([pcm(400, true), pcm(200, false)]);
    const cuts = [0, 4801, 12001, audio.length];
    for (let i = 0; i < cuts.length - 1; i++) {
      client.say('conversation.echo', {
        modality: 'audio',
        audio: audio.subarray(cuts[i], cuts[i + 1]).toString('base64'),
        sample_rate: RATE,
        inference_id: 'echo-1',
        done: i === cuts.length - 2,
      });
    }
    const stopped = await client.waitForEvent('conversation.replica.stopped_speaking', (m) => m.inference_id === 'echo-1', 5000);
    assert.equal(stopped.properties.interrupted, false);
    const frames = client.audio.slice(before);
    const samples = frames.reduce((n, f) => n + f.samples.length, 0);
    assert.equal(samples, audio.length / 2, 'every sample was said once');
    assert.ok(frames.every((f) => f.sampleRate === RATE));
    const visemes = frames.map((f) => f.viseme);
    assert.ok(
      visemes.slice(0, 8).every((v) => v !== 0),
      'the mouth is open on the tone',
    );
    assert.equal(visemes.at(-1), 0, 'and closed on the silence');
    assert.equal(
      client.events('conversation.utterance').filter((m) => m.inference_id === 'echo-1').length,
      0,
      'there are no words to caption',
    );
    assert.ok(client.events('conversation.replica.started_speaking').some((m) => m.inference_id === 'echo-1'));
    client.close();
  });
});
