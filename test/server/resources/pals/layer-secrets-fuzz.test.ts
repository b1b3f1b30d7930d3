// Secrets in a PAL's layers go by the shape of their names, at any depth: a fuzz over nested field
// names (`xi-api-key`, `Ocp-Apim-Subscription-Key`, `private_key`, `credentials.*`, camelCase and
// upper-case spellings…) checks that a value under any of them never comes back from the API, is not
// stored in clear, and never reaches the PAL runner (a fake that verifies the signed handoff).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { DAILY_KEY, RUNNER_SECRET, startFakeDaily, startFakeRunner } from '../../../helpers/fake-daily.js';
import { startListeningService, type TestService } from '../../../helpers/service.js';
import { isSecretName } from '../../../../src/server/resources/pals/secret-names.js';

const SECRET_WORDS = [
  ['key'],
  ['api', 'key'],
  ['token'],
  ['access', 'token'],
  ['secret'],
  ['client', 'secret'],
  ['password'],
  ['passwd'],
  ['credentials'],
  ['credential'],
  ['authorization'],
  ['subscription', 'key'],
  ['private', 'key'],
];
const PREFIXES = [[], ['xi'], ['ocp', 'apim'], ['openai'], ['x'], ['my', 'service'], ['azure']];
const SUFFIXES = [[], ['value'], ['v2'], ['id']];
const STYLES = ['snake', 'kebab', 'upper', 'title', 'camel', 'pascal'] as const;
const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

function spell(words: string[], style: (typeof STYLES)[number]): string {
  switch (style) {
    case 'snake':
      return words.join('_');
    case 'kebab':
      return words.join('-');
    case 'upper':
      return words.join('_').toUpperCase();
    case 'title':
      return words.map(cap).join('-');
    case 'camel':
      return words[0]! + words.slice(1).map(cap).join('');
    case 'pascal':
      return words.map(cap).join('');
  }
}

const secretName = fc
  .tuple(fc.constantFrom(...PREFIXES), fc.constantFrom(...SECRET_WORDS), fc.constantFrom(...SUFFIXES), fc.constantFrom(...STYLES))
  .map(([pre, word, post, style]) => spell([...pre, ...word, ...post], style));
/** Names that are not secrets, for the path down to the secret and for its siblings. */
const plainName = fc.constantFrom('settings', 'provider', 'options', 'voice', 'nested', 'extra', 'headers', 'model', 'config');
const marker = fc.stringMatching(/^[A-Za-z0-9]{12}$/).map((s) => `S3CR3T${s}`);

/** Where the secret sits: a string, an object of strings, an array of strings. */
const secretValue = (m: string) => fc.constantFrom<unknown>(m, { [`inner_${m.slice(6, 9)}`]: m, region: 'eu' }, [m, `${m}b`]);

describe('layer secrets by pattern', () => {
  let t: TestService;
  let daily: Awaited<ReturnType<typeof startFakeDaily>>;
  let runner: Awaited<ReturnType<typeof startFakeRunner>>;
  before(async () => {
    daily = await startFakeDaily();
    runner = await startFakeRunner();
    t = await startListeningService({
      PALKIT_DAILY_API_KEY: DAILY_KEY,
      PALKIT_DAILY_API_URL: daily.url,
      PALKIT_PAL_RUNNER_URL: runner.url,
      PALKIT_PAL_RUNNER_SECRET: RUNNER_SECRET,
    });
  });
  after(async () => {
    await t?.close();
    await Promise.all([daily?.close(), runner?.close()]);
  });

  it('recognises the names of the issue, and leaves counted settings alone', () => {
    for (const name of [
      'api-key',
      'xi-api-key',
      'Ocp-Apim-Subscription-Key',
      'private_key',
      'credentials',
      'apiKey',
      'clientSecret',
      'AUTHORIZATION',
      'x-api-key',
      'password',
    ])
      assert.ok(isSecretName(name), name);
    for (const name of ['model', 'voice', 'keyword', 'monkey', 'base_url', 'tokenizer']) assert.ok(!isSecretName(name), name);
  });

  it('never returns, stores in clear or forwards a value under a secret-like name (fuzz)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('llm', 'tts', 'stt', 'perception', 'conversational_flow'),
        fc.array(plainName, { maxLength: 3 }),
        secretName,
        marker.chain((m) => fc.tuple(fc.constant(m), secretValue(m))),
        async (layer, path, name, [m, value]) => {
          let inner: Record<string, unknown> = { [name]: value, model: 'kept-model' };
          for (const step of [...path].reverse()) inner = { [step]: inner };
          const created = await t.api('POST', '/v2/pals', {
            pal_name: 'Fuzz',
            system_prompt: 'Hi',
            pipeline_mode: 'full',
            default_face_id: 'rpalkitada',
            layers: { [layer]: inner },
          });
          assert.equal(created.status, 200, JSON.stringify(created.body));
          const palId = created.body.pal_id as string;
          const shown = await t.api('GET', `/v2/pals/${palId}`);
          assert.equal(shown.status, 200);
          assert.ok(!JSON.stringify(shown.body).includes(m), `GET returned ${name}: ${JSON.stringify(shown.body.layers)}`);
          assert.match(JSON.stringify(shown.body.layers), /kept-model/, 'the rest of the layer is shown');
          assert.ok(!JSON.stringify((await t.api('GET', '/v2/pals')).body).includes(m), 'the list does not show it');
          const stored = await t.service.deps.db
            .selectFrom('pals')
            .select('definition')
            .where('pal_id', '=', palId)
            .executeTakeFirstOrThrow();
          assert.ok(!JSON.stringify(stored.definition).includes(m), 'stored encrypted');

          const before = runner.requests.length;
          const conv = await t.api('POST', '/v2/conversations', { pal_id: palId });
          assert.equal(conv.status, 200, JSON.stringify(conv.body));
          assert.equal(runner.requests.length, before + 1, 'the runner got the handoff');
          const handoff = JSON.stringify(runner.requests.at(-1)!.body);
          assert.ok(!handoff.includes(m), `the runner got ${name}`);
          assert.ok(!handoff.includes('_encrypted'), 'nor its ciphertext');
          assert.match(handoff, /kept-model/);
        },
      ),
      { numRuns: 40 },
    );
  });
});
