// ESLint (flat config): the TypeScript, Lit and Lit accessibility recommended rules over the whole
// package; `npm run lint` runs it together with lit-analyzer's template checks.
import litA11y from 'eslint-plugin-lit-a11y';
import { configs as lit } from 'eslint-plugin-lit';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'src/*/dist/', 'storybook-static/', '.storybook/generated/', 'node_modules/', '.palkit/', '.shots/', '**/*.tmp.*'] },
  ...tseslint.configs.recommended,
  lit['flat/recommended'],
  litA11y.configs.recommended,
  {
    rules: {
      // A leading underscore marks a parameter or a destructured-away field kept on purpose.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
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
    // Chai's property assertions (`expect(x).to.be.true`) are expressions by design.
    files: ['test/browser/**'],
    rules: { '@typescript-eslint/no-unused-expressions': 'off' },
  },
);
