// README.md's "Your first PAL", run as written (issue 53): its shell block, with the service's address and key
// put in for the two lines a reader edits, is run with bash, curl and jq in a fresh folder; the page it writes
// is served from another origin and opened in Chromium, where the PAL greets the visitor beside its AI mark.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { repoRoot } from '../../../scripts/packing.js';
import { KEY, openPage, palErrors, startWorld, type World } from '../../helpers/e2e-world.js';

/** The first ```sh block under README's "## Your first PAL". */
export function firstPalScript(readme: string): string {
  const section = /^## Your first PAL\n([\s\S]*?)^## /m.exec(readme)?.[1];
  assert.ok(section, 'README has a "Your first PAL" section');
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(block, 'the section has a sh block');
  return block;
}

describe("README's first PAL, followed on a fresh folder", { timeout: 120_000 }, () => {
  let world: World;
  let folder: string;
  let page: Page | undefined;

  before(async () => {
    world = await startWorld();
    folder = mkdtempSync(join(tmpdir(), 'palkit-first-pal-'));
  });
  after(async () => {
    await page
      ?.context()
      .close()
      .catch(() => undefined);
    await world?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('makes an active deployment whose page greets the visitor', async () => {
    const script = firstPalScript(readFileSync(join(repoRoot, 'README.md'), 'utf8'));
    assert.match(script, /^BASE=\S+$/m, 'the reader sets the address on one line');
    assert.match(script, /^KEY=\S+/m, 'and the key on one line');
    const ours = script.replace(/^BASE=.*$/m, `BASE=${world.serviceUrl}`).replace(/^KEY=.*$/m, `KEY=${KEY}`);
    const ran = spawnSync('bash', ['-euo', 'pipefail', '-c', ours], { cwd: folder, encoding: 'utf8', timeout: 60_000 });
    assert.equal(ran.status, 0, `the section's commands:\n${ran.stdout}\n${ran.stderr}`);
    assert.match(ran.stdout, /^active$/m, 'step 3 prints the new status');

    const html = readFileSync(join(folder, 'first-pal.html'), 'utf8');
    const deploymentId = /deployment-id="([^"]+)"/.exec(html)?.[1];
    assert.ok(deploymentId && deploymentId !== 'null', `the page names the deployment: ${html}`);
    const deployment = await world.api('GET', `/v2/deployments/${deploymentId}`);
    assert.equal(deployment.body.status, 'active');

    page = await openPage(world);
    await page.goto(world.sitePage('/first-pal.html', html));
    await page.locator('pal-preview [part="start"]').click();
    await page.locator('pal-haircheck [part="join"]').click();
    await page
      .locator('pal-transcript[mode="captions"] [part="captions"] .caption-text')
      .filter({ hasText: 'Hi, I am Nova.' })
      .waitFor({ timeout: 30_000 });
    // policy eu: the visitor is told, and the AI mark is on the PAL's video whatever the policy.
    await page.locator('[part~="ai-mark"]').first().waitFor();
    assert.deepEqual(await palErrors(page), []);
  });
});
