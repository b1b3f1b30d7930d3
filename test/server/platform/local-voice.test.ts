// Which local voice `auto` picks: the native bridge only where it can be built and its speech items' program
// found; eSpeak NG from npm everywhere else (only node on PATH, another OS); an explicit choice is kept.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chooseLocalVoice } from '../../../src/server/platform/local-voice.js';
import { loadConfig } from '../../../src/server/platform/config.js';
import { findTool } from '../../../src/server/platform/media/find-tool.js';

describe('the local voice PALKIT_LOCAL_VOICE=auto picks', () => {
  it('keeps an explicit choice', () => {
    assert.equal(chooseLocalVoice('wasm', process.env.PATH ?? ''), 'wasm');
    assert.equal(chooseLocalVoice('native', ''), 'native');
  });

  it('the voice from npm with only node on PATH, and in a config without the setting', () => {
    const nodeOnly = mkdtempSync(join(tmpdir(), 'palkit-node-only-'));
    try {
      symlinkSync(process.execPath, join(nodeOnly, 'node'));
      assert.equal(chooseLocalVoice('auto', nodeOnly), 'wasm');
      assert.equal(loadConfig({ PATH: nodeOnly, PALKIT_DATA: 'memory' }).localVoice, 'wasm');
    } finally {
      rmSync(nodeOnly, { recursive: true, force: true });
    }
  });

  it('the native bridge where cc, the headers and espeak-ng are all found (Linux), but not without espeak-ng for speech items', (t) => {
    const path = process.env.PATH ?? '';
    if (
      process.platform !== 'linux' ||
      !existsSync('/usr/include/espeak-ng/speak_lib.h') ||
      !findTool('cc', path) ||
      !findTool('espeak-ng', path)
    ) {
      t.skip('this machine cannot build the native bridge');
      return;
    }
    assert.equal(chooseLocalVoice('auto', path), 'native');
    const empty = mkdtempSync(join(tmpdir(), 'palkit-no-espeak-'));
    try {
      assert.equal(chooseLocalVoice('auto', path, empty), 'wasm');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
