// The one OpenAI-compatible client behind chat, vision, embeddings, speech and transcription: every
// capability answers with the base URL given with or without `/v1` (against loopback stand-ins that
// speak the real wire formats), and errors, redirects, stalls and the key are handled the same way.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../../../src/server/platform/config.js';
import { createGuardedFetch } from '../../../../src/server/platform/net/guarded-fetch.js';
import { streamChat, LlmError } from '../../../../src/server/live/agent/llm.js';
import { describeFrames } from '../../../../src/server/live/perception/vision.js';
import { createEmbedder } from '../../../../src/server/resources/documents/embed/embedder.js';
import { OpenAiSpeech } from '../../../../src/server/providers/voice/openai-speech.js';
import { createSynthesizer, SynthesisError } from '../../../../src/server/providers/voice/synthesis.js';
import { createLogger } from '../../../../src/server/platform/log.js';
import { transcriber, TranscriptionError } from '../../../../src/server/live/ears/transcription.js';
import {
  createSpeech,
  OpenAiClient,
  OpenAiError,
  openAiEndpoint,
  streamChat as streamOpenAiChat,
} from '../../../../src/server/providers/openai/index.js';
import { DocumentError } from '../../../../src/server/resources/documents/errors.js';
import { ManualClock } from '../../../helpers/clock.js';
import { startFakeLlm, type FakeLlm } from '../../../helpers/fake-llm.js';
import { startFakeSpeechServices, type FakeSpeechServices } from '../../../helpers/fake-speech.js';
import { waitFor } from '../../../helpers/wait-for.js';

const KEY = 'sk-proj-Secret0123456789abcdef';

function depsFor(env: Record<string, string>) {
  const config = loadConfig({ PALKIT_OUTBOUND_ALLOW: '127.0.0.0/8', ...env });
  return { config, fetch: createGuardedFetch(config.outboundAllow) };
}

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of stream) out.push(item);
  return out;
}

const never = () => new AbortController().signal;

/** A promise's outcome as it stands ('waiting' until it settles), and `done`: the error it failed with, or 'answered'. */
function outcomeOf(promise: Promise<unknown>) {
  const seen: { outcome: 'waiting' | 'answered' | unknown; done: Promise<unknown> } = { outcome: 'waiting', done: Promise.resolve() };
  seen.done = promise.then(
    () => (seen.outcome = 'answered'),
    (e: unknown) => (seen.outcome = e),
  );
  return seen;
}

describe('the OpenAI-compatible base URL', () => {
  it('adds /v1 only when the base names no version', () => {
    assert.equal(openAiEndpoint('http://h:1', 'chat/completions'), 'http://h:1/v1/chat/completions');
    assert.equal(openAiEndpoint('http://h:1/', 'chat/completions'), 'http://h:1/v1/chat/completions');
    assert.equal(openAiEndpoint('http://h:1/v1', 'audio/speech'), 'http://h:1/v1/audio/speech');
    assert.equal(openAiEndpoint('http://h:1/v1//', 'embeddings'), 'http://h:1/v1/embeddings');
    assert.equal(openAiEndpoint('https://api.groq.com/openai/v1', 'chat/completions'), 'https://api.groq.com/openai/v1/chat/completions');
    assert.equal(
      openAiEndpoint('https://generativelanguage.googleapis.com/v1beta/openai/', 'chat/completions'),
      'https://generativelanguage.googleapis.com/v1beta/openai/chat/completions',
    );
    assert.equal(openAiEndpoint('https://gateway.example/proxy', 'embeddings'), 'https://gateway.example/proxy/v1/embeddings');
  });
});

describe('every capability with or without /v1 in the base URL', () => {
  let llm: FakeLlm;
  let speech: FakeSpeechServices;
  before(async () => {
    llm = await startFakeLlm();
    speech = await startFakeSpeechServices({ transcript: 'When do you open?' });
  });
  after(async () => {
    await llm.close();
    await speech.close();
  });
  const llmRoot = () => llm.baseUrl.replace(/\/v1$/, '');
  const forms = (root: string) => [root, `${root}/`, `${root}/v1`, `${root}/v1/`];

  it("chat: the PAL's streamed replies", async () => {
    for (const base of forms(llmRoot())) {
      const deltas = await collect(
        streamChat(depsFor({ PALKIT_LLM_BASE_URL: base, PALKIT_LLM_API_KEY: KEY }), [{ role: 'user', content: 'Hi' }], never()),
      );
      assert.equal(deltas.join(''), 'Hello from the model.', base);
      assert.deepEqual(
        { path: llm.requests.at(-1)!.path, authorization: llm.requests.at(-1)!.authorization },
        { path: '/v1/chat/completions', authorization: `Bearer ${KEY}` },
        base,
      );
    }
  });

  it("chat: the vision model's whole answer", async () => {
    for (const base of forms(llmRoot())) {
      const said = await describeFrames(depsFor({ PALKIT_VISION_BASE_URL: base, PALKIT_VISION_MODEL: 'gpt-4o' }), 'Describe.', [
        new Uint8Array([0xff, 0xd8]),
      ]);
      assert.equal(said, 'A completion.', base);
      const request = llm.requests.at(-1)!;
      assert.equal(request.path, '/v1/chat/completions', base);
      assert.equal(request.body.max_tokens, 400);
      assert.equal(request.body.messages[0].content[1].image_url.url, 'data:image/jpeg;base64,/9g=');
    }
  });

  it('embeddings: document vectors, in the order of the inputs', async () => {
    for (const base of forms(llmRoot())) {
      const embedder = createEmbedder(depsFor({ PALKIT_EMBEDDINGS_BASE_URL: base, PALKIT_EMBEDDINGS_API_KEY: KEY }));
      const [short, long] = await embedder.embed(['ab', 'abcdef']);
      assert.equal(llm.requests.at(-1)!.path, '/v1/embeddings', base);
      assert.deepEqual(llm.requests.at(-1)!.body.input, ['ab', 'abcdef']);
      // [2, 1, 0.5] and [6, 2, 0.5], normalised: the longer text's vector leans further on its first axis.
      assert.ok(short![0]! / short![1]! < long![0]! / long![1]!, `ordered by index (${base})`);
    }
  });

  it("speech: the PAL's voice as 24 kHz PCM", async () => {
    for (const base of forms(speech.url)) {
      const synthesizer = new OpenAiSpeech(depsFor({ PALKIT_TTS_BASE_URL: base, PALKIT_TTS_API_KEY: KEY }));
      const stream = await synthesizer.synthesize('One two.', { language: 'en' }, never());
      const audio = (await collect(stream.events)).find((e) => e.type === 'audio');
      assert.equal(stream.sampleRate, 24_000);
      assert.equal(audio?.type === 'audio' && audio.samples.length, 24_000 * 0.12 * 2, base);
      assert.equal(speech.speeches.at(-1)!.authorization, `Bearer ${KEY}`);
    }
  });

  it("transcription: the visitor's turn as a WAV file, asked to stream", async () => {
    for (const base of forms(speech.url)) {
      const transcribe = transcriber(depsFor({ PALKIT_STT_BASE_URL: base, PALKIT_STT_API_KEY: KEY }))!;
      assert.equal(await transcribe(new Int16Array(1600), 16_000, 'de', never()), 'When do you open?', base);
      assert.deepEqual(
        { ...speech.transcriptions.at(-1)!, audioBytes: speech.transcriptions.at(-1)!.audioBytes },
        { authorization: `Bearer ${KEY}`, model: 'whisper-1', language: 'de', audioBytes: 44 + 3200, stream: true },
      );
    }
  });
});

/** A provider that misbehaves in the ways the wire allows: what `answer` does with each request. */
async function startProvider(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const seen: Array<{ path: string; authorization: string | undefined }> = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type Provider = Awaited<ReturnType<typeof startProvider>>;

describe('errors, redirects, stalls and the key, in one place', () => {
  const providers: Provider[] = [];
  const start = async (answer: (req: IncomingMessage, res: ServerResponse) => void) => {
    const provider = await startProvider(answer);
    providers.push(provider);
    return provider;
  };
  after(async () => {
    for (const p of providers) await p.close();
  });

  it("says the provider's status and words, never the key it quotes back", async () => {
    const provider = await start((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            message: `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.example/account/api-keys.`,
            type: 'invalid_request_error',
            code: 'invalid_api_key',
          },
        }),
      );
    });
    const env = (kind: string) => ({ [`PALKIT_${kind}_BASE_URL`]: provider.url, [`PALKIT_${kind}_API_KEY`]: KEY });
    const failures: unknown[] = [];
    const capture = async (run: () => Promise<unknown>) =>
      failures.push(
        await run().then(
          () => null,
          (e: unknown) => e,
        ),
      );
    await capture(() => collect(streamChat(depsFor(env('LLM')), [{ role: 'user', content: 'Hi' }], never())));
    await capture(() => describeFrames(depsFor(env('VISION')), 'Describe.', []));
    await capture(() => createEmbedder(depsFor(env('EMBEDDINGS'))).embed(['a']));
    await capture(() => new OpenAiSpeech(depsFor(env('TTS'))).synthesize('Hi.', { language: 'en' }, never()));
    await capture(() => transcriber(depsFor(env('STT')))!(new Int16Array(160), 16_000, 'en', never()));
    assert.deepEqual(
      failures.map((e) => e?.constructor.name),
      ['LlmError', 'VisionError', 'DocumentError', 'SynthesisError', 'TranscriptionError'],
    );
    for (const error of failures as Error[]) {
      assert.match(error.message, /answered 401: Incorrect API key provided: \[redacted\]/);
      assert.ok(!error.message.includes('Secret0123'), error.message);
    }
    assert.ok(failures[2] instanceof DocumentError && failures[2].code === 'embedding_failed');
    assert.ok(failures[3] instanceof SynthesisError && failures[3].code === 'provider_failed');
    assert.ok(failures[0] instanceof LlmError && failures[4] instanceof TranscriptionError);
  });

  it("the service's log line for a failed provider carries its words but not the key", async () => {
    const provider = await start((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}.`, type: 'invalid_request_error' } }));
    });
    const lines: string[] = [];
    const deps = depsFor({ PALKIT_TTS_BASE_URL: provider.url, PALKIT_TTS_API_KEY: KEY, PALKIT_DATA: 'memory' });
    const synthesizer = createSynthesizer({ ...deps, log: createLogger('info', (line) => void lines.push(line)) });
    try {
      // The provider refuses; the local voice speaks instead, and the refusal is logged.
      await synthesizer.synthesize('Hello.', { language: 'en' }, never()).catch(() => undefined);
    } finally {
      synthesizer.close?.();
    }
    const logged = lines.find((l) => l.includes('speech provider failed'));
    assert.ok(logged, lines.join(''));
    assert.match(logged, /answered 401: Incorrect API key provided: \[redacted\]/);
    assert.ok(
      lines.every((l) => !l.includes('Secret0123')),
      lines.join(''),
    );
  });

  it('keeps the key on the configured host: a redirect is an error, not followed', async () => {
    const elsewhere = await start((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"stolen"}'));
    const provider = await start((_req, res) => res.writeHead(307, { location: `${elsewhere.url}/v1/audio/transcriptions` }).end());
    const transcribe = transcriber(depsFor({ PALKIT_STT_BASE_URL: provider.url, PALKIT_STT_API_KEY: KEY }))!;
    await assert.rejects(
      transcribe(new Int16Array(160), 16_000, 'en', never()),
      (e: Error) => e instanceof TranscriptionError && /answered 307 \(a redirect, not followed/.test(e.message),
    );
    assert.deepEqual(elsewhere.seen, [], 'the other host never saw the request or the key');
  });

  it('an HTML error page becomes its status alone', async () => {
    const provider = await start((_req, res) =>
      res
        .writeHead(502, { 'content-type': 'text/html' })
        .end('<html><body><h1>502 Bad Gateway</h1><pre>at Server.handle (/srv/app.js:1:1)</pre></body></html>'),
    );
    const embedder = createEmbedder(depsFor({ PALKIT_EMBEDDINGS_BASE_URL: provider.url }));
    await assert.rejects(
      embedder.embed(['a']),
      (e: Error) => e instanceof DocumentError && /^embedding_failed: embeddings endpoint answered 502$/.test(e.message),
    );
  });

  // The limits on a clock the test moves (the client's deadline and the fetch's, as the service gives both its
  // clock): still waiting a millisecond before the limit, a timeout at it, however busy the machine is.
  it('a provider that never answers, or stops mid-stream, fails with a timeout instead of hanging', async () => {
    const silent = await start(() => undefined);
    const clock = new ManualClock();
    const client = new OpenAiClient(
      { baseUrl: silent.url, apiKey: KEY },
      createGuardedFetch(['127.0.0.0/8'], clock),
      'speech provider',
      { speech: { timeoutMs: 300, maxBytes: 1024 } },
      clock,
    );
    const speaking = outcomeOf(createSpeech(client, { model: 'tts-1', input: 'Hi.', voice: 'alloy' }, never()));
    await waitFor(() => silent.seen.length === 1, { what: 'the request at the provider' });
    await clock.advance(299);
    assert.equal(speaking.outcome, 'waiting', 'still waiting within the limit');
    await clock.advance(1);
    const failure = await speaking.done;
    assert.ok(
      failure instanceof OpenAiError && failure.failure === 'timeout' && failure.message === 'speech provider did not answer in time',
      String(failure),
    );

    const stalling = await start((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Half a' } }] })}\n\n`);
    });
    const chat = new OpenAiClient(
      { baseUrl: stalling.url },
      createGuardedFetch(['127.0.0.0/8'], clock),
      'language model',
      { chatStream: { timeoutMs: 400, maxBytes: 1024 } },
      clock,
    );
    const got: unknown[] = [];
    const streaming = outcomeOf(
      (async () => {
        for await (const delta of streamOpenAiChat(chat, { model: 'm', messages: [{ role: 'user', content: 'Hi' }] }, never()))
          got.push(delta);
      })(),
    );
    await waitFor(() => got.length === 1, { what: 'the first delta' });
    await clock.advance(399);
    assert.equal(streaming.outcome, 'waiting', 'the stalled stream is still read within the limit');
    await clock.advance(1);
    const cut = await streaming.done;
    assert.ok(cut instanceof OpenAiError && cut.failure === 'timeout', String(cut));
    assert.deepEqual(got, ['Half a'], 'what arrived before the stall was yielded');
  });

  it("the caller's own abort passes through as an abort, not as a provider failure", async () => {
    const silent = await start(() => undefined);
    const abort = new AbortController();
    const synthesizing = new OpenAiSpeech(depsFor({ PALKIT_TTS_BASE_URL: silent.url })).synthesize('Hi.', { language: 'en' }, abort.signal);
    setTimeout(() => abort.abort(), 50);
    await assert.rejects(synthesizing, (e: Error) => !(e instanceof SynthesisError) && e.name === 'AbortError');
  });

  it("an error event inside the stream ends the reply with the provider's words", async () => {
    const provider = await start((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(`data: ${JSON.stringify({ error: { message: `rate limited for key ${KEY}` } })}\n\n`);
    });
    await assert.rejects(
      collect(
        streamChat(depsFor({ PALKIT_LLM_BASE_URL: provider.url, PALKIT_LLM_API_KEY: KEY }), [{ role: 'user', content: 'Hi' }], never()),
      ),
      (e: Error) => e instanceof LlmError && e.message === 'language model error: rate limited for key [redacted]',
    );
  });
});
