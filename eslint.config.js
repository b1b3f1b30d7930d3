// ESLint (flat config): the TypeScript, Lit and Lit accessibility recommended rules over the whole
// package; `npm run lint` runs it together with lit-analyzer's template checks.
import litA11y from 'eslint-plugin-lit-a11y';
import { configs as lit } from 'eslint-plugin-lit';
import tseslint from 'typescript-eslint';

// What a fixed sleep looks like: a promise that a timer resolves, a timer from node:timers/promises, or a
// call of a helper named for sleeping with a time (tick() with no time, one turn of the event loop, is fine).
const FIXED_SLEEPS = [
  {
    selector: "NewExpression[callee.name='Promise'] CallExpression[callee.name='setTimeout']",
    message:
      'A fixed sleep: wait for the state with waitFor, for an event with oneEvent, or advance the test clock (docs/contributing.md, "Waiting").',
  },
  {
    selector: 'ImportDeclaration[source.value=/timers\\/promises$/]',
    message: 'A timer from node:timers/promises in the gate is a fixed sleep: wait with waitFor or advance the test clock.',
  },
  {
    selector: 'CallExpression[callee.name=/^(sleep|delay|tick|pause)$/][arguments.length>0]:not([arguments.0.value=0])',
    message: 'A fixed sleep: wait for the state with waitFor, for an event with oneEvent, or advance the test clock.',
  },
];

// The service's time comes from its dependencies (ServiceDeps.clock, src/server/platform/time.ts), so that
// tests can move it (test/helpers/clock.ts). What must keep the wall clock (audio paced at real speed, an
// outside tool's kill timeout) says why in an eslint-disable comment.
const CLOCK =
  "Use the service's clock (deps.clock: now, setTimeout, setInterval, sleep), or say in an eslint-disable comment why this is wall-clock time.";

export default tseslint.config(
  { ignores: ['dist/', 'src/*/dist/', 'storybook-static/', '.storybook/generated/', 'node_modules/', '.palkit/', '.shots/', '**/*.tmp.*'] },
  ...tseslint.configs.recommended,
  lit['flat/recommended'],
  litA11y.configs.recommended,
  {
    rules: {
      // A leading underscore marks a parameter or a destructured-away field kept on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Migrations take `Kysely<any>`, as Kysely advises: they must not depend on today's table types.
    files: ['src/server/platform/db/migrate.ts', 'src/server/platform/db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Tests read the service's JSON answers loosely and assert on them; the wire schemas are checked elsewhere.
    files: ['test/**', 'bench/**', 'demo/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The gate waits for things, never for a time (docs/contributing.md, "Two tiers"): no fixed sleeps in its
    // test files. Wait for a state with waitFor (test/helpers/wait-for.ts, test/browser/helpers/wait-for.ts)
    // or an event with oneEvent; make the service's time pass with the test clock's advance
    // (test/helpers/clock.ts). Files that measure real time belong in test/realtime, where sleeps are allowed.
    // The stand-ins the browser tests share with the stories (stories/support) are held to the same rule.
    files: [
      'test/server/**',
      'test/browser/**/*.test.ts',
      'stories/support/endpoints.ts',
      'stories/support/transport.ts',
      'stories/support/turnstile.ts',
    ],
    rules: { 'no-restricted-syntax': ['error', ...FIXED_SLEEPS] },
  },
  {
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/platform/time.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'setTimeout', message: CLOCK }, { name: 'setInterval', message: CLOCK }],
      'no-restricted-properties': ['error', { object: 'Date', property: 'now', message: CLOCK }],
      'no-restricted-syntax': ['error', { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: CLOCK }],
    },
  },
  {
    // Chai's property assertions (`expect(x).to.be.true`) are expressions by design.
    files: ['test/browser/**'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
