// Extraction runs on a worker thread: the service's event loop keeps turning while megabytes of crafted
// markup are read, and the worker's answer (text, or the spec's error code) is the one extract() gives.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DocumentError } from '../../../../src/server/resources/documents/errors.js';
import { extract } from '../../../../src/server/resources/documents/extract/index.js';
import { extractHtml } from '../../../../src/server/resources/documents/extract/html.js';
import { extractOffThread, extractPage } from '../../../../src/server/resources/documents/extract/off-thread.js';
import { craftedHtml } from '../../../helpers/crafted-html.js';

const utf8 = (text: string) => new TextEncoder().encode(text);

describe('extraction off the event loop', () => {
  it('keeps the event loop turning while a large crafted page is read', async () => {
    const page = utf8(craftedHtml('table-soup', 8 * 1024 * 1024));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    try {
      const extracted = await extractOffThread(page, 'text/html', 'https://site.example/');
      assert.equal(extracted.kind, 'html');
      assert.ok(extracted.text.includes('cell | cell |'));
    } finally {
      clearInterval(timer);
    }
    // On the main thread no timer could fire until the extraction returned.
    assert.ok(ticks >= 5, `${ticks} timer ticks while the page was read`);
  });

  it('reads a large crawled page on a worker too, with the same text and links', async () => {
    const html = craftedHtml('nested-unclosed', 2 * 1024 * 1024);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const page = await extractPage(html, 'https://site.example/').finally(() => clearInterval(timer));
    assert.ok(ticks >= 5, `${ticks} timer ticks while the page was read`);
    assert.deepEqual(page, extractHtml(html, 'https://site.example/'));
    assert.equal(page.links[0], 'https://site.example/x');
  });

  it('answers as extract() does, errors included', async () => {
    const markdown = utf8('# Title\n\nSome *text* here.');
    assert.deepEqual(
      await extractOffThread(markdown, 'text/markdown', 'https://x.example/a.md'),
      await extract(markdown, 'text/markdown', 'https://x.example/a.md'),
    );
    for (const [bytes, code] of [
      [new Uint8Array(0), 'file_empty'],
      [new Uint8Array([0, 1, 2, 3, 0, 255]), 'file_format_unsupported'],
    ] as const) {
      await assert.rejects(
        extractOffThread(bytes, 'application/octet-stream', 'https://x.example/f'),
        (error: unknown) => error instanceof DocumentError && error.code === code && error.message.startsWith(`${code}: `),
      );
    }
  });
});
