// scripts/test-tiers-files.mjs: databaseLeg (a real-time file that skips itself on one database leg is run
// on the other alone; anything it cannot read for sure runs on both, as the server suite runs it) and UNTIMED.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
// @ts-expect-error: a plain .mjs script of the repository, without types
import { UNTIMED, databaseLeg, kindOf } from '../../../scripts/test-tiers-files.mjs';

const legOf = databaseLeg as (file: string) => 'PGlite' | 'PostgreSQL' | null;
const IMPORT = "import { onPostgres } from '../helpers/service.js';\n";

describe('databaseLeg', () => {
  let folder: string;
  before(async () => (folder = await mkdtemp(join(tmpdir(), 'palkit-legs-'))));
  after(() => rm(folder, { recursive: true, force: true }));
  const legOfText = async (name: string, text: string) => {
    const file = join(folder, name);
    await writeFile(file, IMPORT + text);
    return legOf(file);
  };

  it('names the leg a file keeps when every top-level call skips the other', async () => {
    assert.equal(
      await legOfText('a.test.ts', "describe('a', { skip: onPostgres && 'PGlite only' }, () => {\n  it('x', () => {});\n});\n"),
      'PGlite',
    );
    assert.equal(await legOfText('b.test.ts', "describe('b', { skip: !onPostgres && 'PostgreSQL only' }, () => {});\n"), 'PostgreSQL');
    assert.equal(
      await legOfText('c.test.ts', "const skip = onPostgres ? null : 'the PostgreSQL leg only';\ndescribe('c', { skip }, () => {});\n"),
      'PostgreSQL',
    );
    assert.equal(
      await legOfText(
        'l.test.ts',
        "const skip = onPostgres && 'PGlite only: the HTTP body limit';\ndescribe('l', { skip }, () => {});\ndescribe('m', { timeout: 1, skip }, () => {});\n",
      ),
      'PGlite',
      'a gate file whose subject is not the database, as the server suite reads it',
    );
  });

  it('reads a call whose options Prettier put on lines of their own', async () => {
    assert.equal(
      await legOfText(
        'i.test.ts',
        "describe(\n  'i',\n  { timeout: 240_000, skip: onPostgres && 'PGlite only' },\n  () => {\n    it('x', () => {});\n  },\n);\n",
      ),
      'PGlite',
    );
    assert.equal(
      await legOfText(
        'j.test.ts',
        "const skip = !onPostgres ? 'the PostgreSQL leg only' : !tool ? 'no tool' : false;\ndescribe('j', { skip, timeout: 1 }, () => {});\n",
      ),
      'PostgreSQL',
    );
    assert.equal(
      await legOfText(
        'k.test.ts',
        "describe(\n  'k',\n  { timeout: 1 },\n  () => {\n    it('x', { skip: onPostgres && 'y' }, () => {});\n  },\n);\n",
      ),
      null,
      "a skip inside the callback is not the call's own",
    );
  });

  it('runs both legs when it cannot tell', async () => {
    assert.equal(await legOfText('d.test.ts', "describe('d', () => {});\n"), null, 'no skip');
    assert.equal(
      await legOfText('e.test.ts', "describe('e', { skip: onPostgres && 'x' }, () => {});\ndescribe('f', () => {});\n"),
      null,
      'one top-level call runs on both',
    );
    assert.equal(
      await legOfText(
        'g.test.ts',
        "describe('g', { skip: onPostgres && 'x' }, () => {});\ndescribe('h', { skip: !onPostgres && 'y' }, () => {});\n",
      ),
      null,
      'calls on different legs',
    );
  });
});

describe('UNTIMED, the real-time files run side by side', () => {
  it('names node and end-to-end files that exist (a browser file runs every engine at once already)', () => {
    for (const file of UNTIMED as string[]) {
      assert.ok(existsSync(file), `${file} is gone: strike it from UNTIMED`);
      assert.notEqual(kindOf(file), 'browser', file);
    }
  });
});
