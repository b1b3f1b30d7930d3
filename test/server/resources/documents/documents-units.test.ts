// Pure parts of the documents pipeline: chunking, robots.txt, URL normalisation, HTML main content,
// format sniffing and the local embedder.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chunkText } from '../../../../src/server/resources/documents/chunk.js';
import { parseRobots } from '../../../../src/server/resources/documents/crawl/robots.js';
import { looksLikeNonHtml, normaliseUrl, sameSite } from '../../../../src/server/resources/documents/crawl/urls.js';
import { HashedEmbedder } from '../../../../src/server/resources/documents/embed/hashed.js';
import { extractHtml } from '../../../../src/server/resources/documents/extract/html.js';
import { extract, sniff } from '../../../../src/server/resources/documents/extract/index.js';
import { extractMarkdown } from '../../../../src/server/resources/documents/extract/markdown.js';

describe('chunkText', () => {
  it('keeps short paragraphs together and cuts at about the chunk size on paragraph boundaries', () => {
    const paragraphs = Array.from({ length: 20 }, (_, i) => `Paragraph ${i} ` + 'word '.repeat(30).trim() + '.');
    const chunks = chunkText(paragraphs.join('\n\n'), { size: 800, overlap: 0 });
    assert.ok(chunks.length >= 3 && chunks.length <= 5, `got ${chunks.length} chunks`);
    for (const c of chunks) assert.ok(c.length <= 800, `chunk of ${c.length}`);
    for (const c of chunks) assert.match(c, /^Paragraph \d+ /); // starts on a paragraph
    assert.equal(chunks.join('\n\n'), paragraphs.join('\n\n'));
  });

  it('splits a long paragraph on sentences and repeats the previous chunk end as overlap', () => {
    const sentences = Array.from({ length: 40 }, (_, i) => `Sentence number ${i} says something useful.`);
    const chunks = chunkText(sentences.join(' '), { size: 300, overlap: 100 });
    assert.ok(chunks.length > 4);
    for (const c of chunks) assert.ok(c.length <= 300);
    for (const c of chunks) assert.match(c, /^Sentence number \d+/);
    // Overlap: the second chunk starts with a sentence the first one ended with.
    const firstSentenceOfSecond = /^Sentence number \d+ says something useful\./.exec(chunks[1]!)![0];
    const repeated = chunks[0]!.slice(chunks[0]!.indexOf(firstSentenceOfSecond));
    assert.ok(chunks[0]!.includes(firstSentenceOfSecond) && repeated.length <= 100 && chunks[1]!.startsWith(repeated));
  });

  it('cuts words that are longer than a chunk', () => {
    const chunks = chunkText('x'.repeat(2000), { size: 800 });
    assert.deepEqual(
      chunks.map((c) => c.length),
      [800, 800, 400],
    );
  });
});

describe('robots.txt', () => {
  const robots = parseRobots(`
User-agent: *
Disallow: /private
Disallow: /*.pdf$

User-agent: palkit
User-agent: otherbot
Disallow: /secret
Allow: /secret/open
Crawl-delay: 2
`);
  it('uses the palkit group when there is one (and only it)', () => {
    assert.equal(robots.isAllowed('http://h/private/page'), true);
    assert.equal(robots.isAllowed('http://h/secret/x'), false);
    assert.equal(robots.isAllowed('http://h/secret/open/y'), true); // longest match wins
    assert.equal(robots.crawlDelay, 2);
  });
  it('falls back to *, with wildcards and end anchors', () => {
    const star = parseRobots('User-agent: *\nDisallow: /private\nDisallow: /*.pdf$\nAllow: /private/ok\n');
    assert.equal(star.isAllowed('http://h/private/a'), false);
    assert.equal(star.isAllowed('http://h/private/ok'), true);
    assert.equal(star.isAllowed('http://h/files/a.pdf'), false);
    assert.equal(star.isAllowed('http://h/files/a.pdf?x=1'), true);
    assert.equal(star.isAllowed('http://h/public'), true);
    assert.equal(parseRobots('User-agent: other\nDisallow: /\n').isAllowed('http://h/x'), true);
    assert.equal(parseRobots('User-agent: *\nDisallow:\n').isAllowed('http://h/x'), true);
  });
});

describe('URL normalisation', () => {
  it('collapses spellings of one page', () => {
    const same = ['HTTP://Example.COM:80/a?b=2&a=1#frag', 'http://example.com/a?a=1&b=2', 'http://example.com/x/../a?a=1&b=2'];
    assert.deepEqual(new Set(same.map((u) => normaliseUrl(u))).size, 1);
    assert.equal(normaliseUrl('https://example.com:443/'), 'https://example.com/');
    assert.equal(normaliseUrl('http://example.com/a?'), 'http://example.com/a');
    assert.equal(normaliseUrl('mailto:x@example.com'), undefined);
    assert.equal(normaliseUrl('javascript:alert(1)'), undefined);
    assert.equal(normaliseUrl('http://user:pw@example.com/'), undefined);
  });
  it('knows the site and non-page links', () => {
    assert.equal(sameSite('http://a.com/x', 'https://a.com/y'), true);
    assert.equal(sameSite('http://a.com/x', 'http://b.a.com/y'), false);
    assert.equal(sameSite('http://a.com:8080/x', 'http://a.com/y'), false);
    assert.equal(looksLikeNonHtml('http://a.com/file.PDF'), true);
    assert.equal(looksLikeNonHtml('http://a.com/about'), false);
  });
});

describe('HTML extraction', () => {
  it('keeps the main content and leaves menus, headers, footers, sidebars and scripts out', () => {
    const html = `<html><head><title>T &amp; C</title><script>var menu = "x"</script></head><body>
      <header><a href="/home">Home menu</a></header><nav><ul><li><a href="/a">Nav link A</a></li></ul></nav>
      <div class="layout"><aside>Sidebar promo</aside>
      <main><h1>Refunds</h1><p>You get a refund within <b>30&nbsp;days</b>.</p><ul><li>One</li><li>Two</li></ul>
      <div role="navigation">Breadcrumbs</div><p hidden>Hidden text</p></main></div>
      <footer>Copyright footer</footer></body></html>`;
    const page = extractHtml(html, 'http://site.test/docs/page');
    assert.equal(page.title, 'T & C');
    assert.equal(page.text, 'Refunds\n\nYou get a refund within 30 days.\n\n- One\n\n- Two');
    assert.deepEqual(page.links, ['http://site.test/home', 'http://site.test/a']);
  });
  it('uses articles when there is no main, else the body without its chrome', () => {
    assert.equal(
      extractHtml('<body><nav>menu</nav><article><header><h2>Post</h2></header><p>Body</p></article><footer>f</footer></body>').text,
      'Post\n\nBody',
    );
    assert.equal(
      extractHtml('<body><header>top</header><div>Plain <i>content</i><br>line two</div><footer>f</footer></body>').text,
      'Plain content\nline two',
    );
  });
});

describe('format sniffing and extraction', () => {
  it('recognises formats from the bytes before the declared type', async () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    assert.equal(await sniff(enc('%PDF-1.7 ...'), 'text/plain', 'http://x/a'), 'pdf');
    assert.equal(await sniff(enc('<!DOCTYPE html><p>x'), 'application/octet-stream', 'http://x/a'), 'html');
    assert.equal(await sniff(enc('# Title\n\ntext'), 'text/plain', 'http://x/readme.md'), 'markdown');
    assert.equal(await sniff(enc('hello'), 'text/plain', 'http://x/a'), 'text');
    assert.equal(await sniff(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1]), 'image/png', 'http://x/a.png'), undefined);
    assert.equal(await sniff(enc('PK\x03\x04 not really a zip'), 'application/zip', 'http://x/a.zip'), undefined);
    await assert.rejects(extract(new Uint8Array(), 'text/plain', 'http://x/a'), /file_empty/);
    await assert.rejects(extract(enc('   \n  '), 'text/plain', 'http://x/a'), /file_empty/);
    await assert.rejects(extract(enc('%PDF-1.4 broken'), 'application/pdf', 'http://x/a'), /document_processing_failed/);
  });
  it('reduces Markdown to its text', () => {
    assert.equal(
      extractMarkdown('# Heading\n\nSome **bold** and [a link](http://x) and `code`.\n\n![img](a.png)'),
      'Heading\n\nSome bold and a link and code.\n\nimg',
    );
  });
});

describe('local embedder', () => {
  it('is deterministic, unit length, and ranks related text higher', async () => {
    const e = new HashedEmbedder();
    const [a, b, c, q] = await e.embed([
      'Our refund policy: refunds within 30 days.',
      'Shipping takes five business days.',
      'The office dog is called Biscuit.',
      'how do refunds work',
    ]);
    const dot = (x: number[], y: number[]) => x.reduce((s, v, i) => s + v * y[i]!, 0);
    assert.equal(a!.length, 256);
    assert.ok(Math.abs(dot(a!, a!) - 1) < 1e-9);
    assert.deepEqual((await e.embed(['Our refund policy: refunds within 30 days.']))[0], a);
    assert.ok(dot(q!, a!) > dot(q!, b!) && dot(q!, a!) > dot(q!, c!));
  });
});
