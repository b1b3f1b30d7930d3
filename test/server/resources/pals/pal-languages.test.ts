// Every language the API accepts is one the PAL can speak: its own lines (greeting, disclosures,
// refusal, "not sure", small talk) written in it, and a voice for it in the local synthesiser. Every
// language it cannot speak is refused with a 400 that lists the ones it can, for a PAL and for a
// conversation's own languages. A Swedish PAL greets in Swedish, in a real room.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { supportedLanguages } from '../../../../src/server/resources/pals/languages.js';
import { palLine, palLines, primaryLanguage } from '../../../../src/server/resources/pals/lines/language.js';
import { EspeakSynthesizer } from '../../../../src/server/providers/voice/espeak.js';
import { espeakVoice } from '../../../../src/server/providers/voice/espeak/voice-names.js';
import { insertConversation, insertFace, insertPal, RoomClient } from '../../../helpers/live-fixtures.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';

// The languages the API accepted before it checked that the PAL can speak them (issue 27): the ones
// now refused among them must be refused clearly.
const ONCE_ACCEPTED = [
  'af',
  'ar',
  'bg',
  'bn',
  'ca',
  'cs',
  'cy',
  'da',
  'de',
  'el',
  'en',
  'es',
  'et',
  'eu',
  'fa',
  'fi',
  'fil',
  'fr',
  'gl',
  'he',
  'hi',
  'hr',
  'hu',
  'id',
  'is',
  'it',
  'ja',
  'ko',
  'lt',
  'lv',
  'ms',
  'nb',
  'nl',
  'no',
  'pl',
  'pt',
  'ro',
  'ru',
  'sk',
  'sl',
  'sr',
  'sv',
  'sw',
  'ta',
  'te',
  'th',
  'tr',
  'uk',
  'ur',
  'vi',
  'yue',
  'zh',
  'zh-TW',
  'zh-HK',
];
const LINE_KEYS = [
  'greeting',
  'unsure',
  'unsureWithTopics',
  'refusal',
  'llmFailure',
  'verbalDisclosure',
  'visualDisclosure',
  'recordingNotice',
  'hello',
  'thanks',
  'bye',
  'howAreYou',
  'ack',
] as const;

describe('the languages a PAL speaks', () => {
  let t: TestService;
  let face: string;
  before(async () => {
    t = await startListeningService({ PALKIT_PAL_WORDS_PER_MINUTE: '3000' });
    face = await insertFace(t);
  });
  after(() => t.close());

  for (const tag of supportedLanguages) {
    it(`${tag}: accepted, greets in its own words, and has all the PAL's lines`, async () => {
      const created = await t.api('POST', '/v2/pals', { pal_name: 'Sven', system_prompt: 'Hi.', default_face_id: face, languages: [tag] });
      assert.equal(created.status, 200, JSON.stringify(created.body));
      const greeting = palLine(tag, 'greeting', { name: 'Sven' });
      assert.match(greeting, /Sven/);
      if (primaryLanguage(tag) === 'en') assert.equal(greeting, "Hi, I'm Sven. How can I help you today?");
      else {
        for (const key of LINE_KEYS)
          assert.notEqual(
            palLine(tag, key, { name: 'Sven', topics: 'x' }),
            palLine('en', key, { name: 'Sven', topics: 'x' }),
            `${tag} ${key} is not English`,
          );
      }
      for (const key of LINE_KEYS) assert.ok(palLine(tag, key, { name: 'Sven', topics: 'x' }).trim().length > 1, `${tag} ${key}`);
      assert.ok(palLines(tag).and.length > 0);
    });
  }

  it('each accepted language has a voice in the local synthesiser (no silent call)', async () => {
    const voice = new EspeakSynthesizer(t.service.deps.log);
    try {
      for (const lang of new Set(supportedLanguages.map(primaryLanguage))) {
        const stream = await voice.synthesize(palLine(lang, 'hello'), { language: lang, rate: 300 }, new AbortController().signal);
        let samples = 0;
        for await (const e of stream.events) if (e.type === 'audio') samples += e.samples.length;
        assert.ok(samples > 1000, `${lang}: ${samples} samples`);
      }
    } finally {
      voice.close?.();
    }
  });

  it('refuses, with a 400 listing the supported ones, a language the PAL cannot speak (PAL and conversation)', async () => {
    const refused = ONCE_ACCEPTED.filter((tag) => !supportedLanguages.includes(tag));
    assert.ok(refused.includes('fil') && refused.includes('gl'), 'no voice for fil and gl');
    for (const tag of refused) {
      const r = await t.api('POST', '/v2/pals', { pal_name: 'Sven', system_prompt: 'Hi.', default_face_id: face, languages: ['en', tag] });
      assert.equal(r.status, 400, `${tag}: ${JSON.stringify(r.body)}`);
      assert.match(r.body.error, new RegExp(`'${tag}' is not a supported language; supported: .*\\bsv\\b`));
    }
    const pal = await insertPal(t, { faceId: face });
    const conv = await t.api('POST', '/v2/conversations', { pal_id: pal, properties: { languages: ['fil'] } });
    assert.equal(conv.status, 400, JSON.stringify(conv.body));
    assert.match(conv.body.error, /properties\.languages: 'fil' is not a supported language; supported: /);
  });

  it('a regional or script tag is accepted when its language is supported, and stored as BCP 47 spells it (issue 35)', async () => {
    const pal = await t.api('POST', '/v2/pals', {
      pal_name: 'Nora',
      system_prompt: 'Hi.',
      default_face_id: face,
      languages: ['nb-NO', 'pt_br', 'zh-Hans-CN', 'de-CH-1996'],
    });
    assert.equal(pal.status, 200, JSON.stringify(pal.body));
    assert.deepEqual(pal.body.languages, ['nb-NO', 'pt-BR', 'zh-Hans-CN', 'de-CH-1996']);
    const conv = await t.api('POST', '/v2/conversations', { pal_id: pal.body.pal_id, properties: { languages: ['it-IT', 'fr-CA'] } });
    assert.equal(conv.status, 200, JSON.stringify(conv.body));
    // Traditional Chinese is not what the Chinese lines are written in; Nynorsk and Filipino are not spoken.
    for (const tag of ['zh-TW', 'zh-Hant', 'nn-NO', 'fil-PH']) {
      const r = await t.api('POST', '/v2/pals', { pal_name: 'Nora', system_prompt: 'Hi.', default_face_id: face, languages: [tag] });
      assert.equal(r.status, 400, `${tag}: ${JSON.stringify(r.body)}`);
      assert.match(r.body.error, new RegExp(`'${tag}' is not a supported language; supported: .*\\bnb\\b.*e\\.g\\. .*fr-CA`));
    }
  });

  it("a region's own voice where eSpeak has one (en-GB, pt-BR, es-MX, fr-BE), its language's voice elsewhere", async () => {
    const expected: Record<string, string> = {
      'en-GB': 'en',
      'en-US': 'en-us',
      en: 'en-us',
      'pt-BR': 'pt-br',
      pt: 'pt',
      'es-MX': 'es-419',
      'es-419': 'es-419',
      es: 'es',
      'fr-BE': 'fr-be',
      'fr-CA': 'fr',
      'nb-NO': 'nb',
      'zh-Hans-CN': 'cmn',
      'de-CH': 'de',
    };
    const voice = new EspeakSynthesizer(t.service.deps.log);
    try {
      for (const [language, name] of Object.entries(expected)) {
        assert.equal(espeakVoice({ language }), name, language);
        const stream = await voice.synthesize('Hola, hello.', { language, rate: 300 }, new AbortController().signal);
        let samples = 0;
        for await (const e of stream.events) if (e.type === 'audio') samples += e.samples.length;
        assert.ok(samples > 1000, `${language}: ${samples} samples`);
      }
    } finally {
      voice.close?.();
    }
  });

  it('a PAL set to nb-NO greets in Norwegian in a live room', async () => {
    const pal = await insertPal(t, { name: 'Nora', definition: { languages: ['nb-NO'] } });
    const room = await insertConversation(t, { palId: pal, customGreeting: null });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    const greeting = await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica');
    assert.equal(greeting.properties.speech, 'Hei, jeg heter Nora. Hvordan kan jeg hjelpe deg i dag?');
    client.close();
  });

  it('a Swedish PAL greets in Swedish in a live room', async () => {
    const pal = await insertPal(t, { name: 'Sven', definition: { languages: ['sv'] } });
    const room = await insertConversation(t, { palId: pal, customGreeting: null });
    const client = await RoomClient.join(room.conversationUrl, room.token, 'Dana');
    const greeting = await client.waitForEvent('conversation.utterance', (m) => m.properties.role === 'replica');
    assert.equal(greeting.properties.speech, 'Hej, jag heter Sven. Hur kan jag hjälpa dig i dag?');
    client.close();
  });
});
