// The HTML extractor: main content without the page's chrome, every HTML5 entity decoded, browsers'
// forgiving structure (implicit closes, stray end tags, unclosed elements), links for the crawler, and
// crafted markup read without blowing the stack or losing its text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { extractHtml } from '../../../../src/server/resources/documents/extract/html.js';
import { MAX_DEPTH, parseHtml, type HtmlElement } from '../../../../src/server/resources/documents/extract/html-tree.js';
import { CRAFTED_KINDS, craftedHtml } from '../../../helpers/crafted-html.js';

function depth(node: HtmlElement): number {
  let deepest = 0;
  const pending: Array<[HtmlElement, number]> = [[node, 0]];
  while (pending.length) {
    const [element, level] = pending.pop()!;
    deepest = Math.max(deepest, level);
    for (const child of element.children) if (typeof child !== 'string') pending.push([child, level + 1]);
  }
  return deepest;
}

describe('HTML extraction (htmlparser2 tokenizer)', () => {
  it('decodes every HTML5 entity, named and numeric, in text, titles and attributes', () => {
    const page =
      extractHtml(`<title>Caf&eacute; &amp; Bar</title><body><p>A&hellip;B&nbsp;C &mdash; &#x1F600; &#8364; &notin; &frac34; &Aring;&lt;tag&gt; &unknown; AT&amp;T</p>
      <img alt="&quot;quoted&quot; &amp; more"></body>`);
    assert.equal(page.title, 'Café & Bar');
    assert.match(page.text, /A…B C — 😀 € ∉ ¾ Å<tag> &unknown; AT&T/);
    assert.match(page.text, /"quoted" & more/);
  });

  it('does not decode twice', () => {
    assert.equal(extractHtml('<p>&amp;lt;b&amp;gt; is written &amp;amp;lt;</p>').text, '&lt;b&gt; is written &amp;lt;');
  });

  it('closes paragraphs, list items and cells as browsers do, and ignores stray end tags', () => {
    const page = extractHtml('<main><p>one<p>two</span><ul><li>a<li>b</ul><table><tr><td>x<td>y<tr><td>z</table></div>after</main>');
    assert.equal(page.text, 'one\n\ntwo\n\n- a\n\n- b\n\nx | y |\n\nz |\n\nafter');
  });

  it('keeps scripts, styles and their look-alike text out, and reads textarea and title text as text', () => {
    const page = extractHtml(
      '<head><style>p{}</style><title>T &lt;1&gt;</title></head><body><script>document.write("<p>no</p>")</script><p>yes</p><noscript>enable js</noscript></body>',
    );
    assert.equal(page.title, 'T <1>');
    assert.equal(page.text, 'yes');
  });

  it('takes the first outermost main, then articles, then the body without its chrome', () => {
    assert.equal(extractHtml('<nav>menu</nav><main>outer<main>inner</main></main><main>second</main>').text, 'outer\n\ninner');
    assert.equal(
      extractHtml('<header>h</header><article>one</article><aside>ad</aside><article>two<article>nested</article></article>').text,
      'one\n\ntwo\n\nnested',
    );
    assert.equal(
      extractHtml(
        '<header>site</header><div role="navigation">nav</div><p hidden>gone</p><p aria-hidden="true">gone</p><p>body</p><footer>f</footer>',
      ).text,
      'body',
    );
  });

  it('collects absolute http(s) links in order, from the base href, without nofollow ones', () => {
    const page = extractHtml(
      `<base href="/docs/"><a href="a.html">a</a><a href='https://other.example/x?y=1&amp;z=2'>b</a>
      <a href=mailto:x@y>m</a><a rel="nofollow" href="/n">n</a><area href="/map"><a href=" javascript:alert(1)">j</a>`,
      'https://site.example/start',
    );
    assert.deepEqual(page.links, ['https://site.example/docs/a.html', 'https://other.example/x?y=1&z=2', 'https://site.example/map']);
  });

  it('keeps the first of a repeated attribute and reads unquoted and malformed ones', () => {
    const root = parseHtml('<a href=/one href="/two" title=\'t\' data-x=1 disabled>x</a><div class="a b=c">y</div>');
    const [a, div] = root.children as HtmlElement[];
    assert.deepEqual(a!.attrs, { href: '/one', title: 't', 'data-x': '1', disabled: '' });
    assert.equal(div!.attrs.class, 'a b=c');
  });

  it('flattens nesting deeper than the cap, keeping every word', () => {
    const html = '<div>'.repeat(100_000) + 'bottom' + '</div>'.repeat(100_000) + '<p>after</p>';
    const root = parseHtml(html);
    assert.ok(depth(root) <= MAX_DEPTH + 1, `depth ${depth(root)}`);
    assert.equal(extractHtml(html).text, 'bottom\n\nafter');
  });

  it('reads every crafted kind, keeping its text', () => {
    for (const kind of CRAFTED_KINDS) {
      const html = craftedHtml(kind, 200_000);
      const page = extractHtml(html, 'https://site.example/');
      assert.equal(page.title, 'Crafted', kind);
      if (kind === 'plain-text') assert.ok(page.text.length > 190_000, `${kind}: ${page.text.length}`);
      if (kind === 'nested-unclosed') assert.equal(page.text.split('deep').length, html.split('deep').length, kind);
      if (kind === 'entity-flood') assert.ok(page.text.includes('&…😀—'), kind);
    }
  });
});
