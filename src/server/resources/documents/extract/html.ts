// Main-content text of an HTML page (menus, headers, footers, sidebars and scripts left out) and the
// links a crawl follows (taken from the whole page, menus included).
import { findAll, findOutermost, parseHtml, type HtmlElement, type HtmlNode } from './html-tree.js';

const DROP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'nav',
  'aside',
  'form',
  'svg',
  'iframe',
  'button',
  'select',
  'dialog',
  'menu',
  'canvas',
  'object',
  'head',
  'title',
]);
/** Page chrome: dropped at page level, kept inside the chosen main/article (an article's own header holds its title). */
const CHROME = new Set(['header', 'footer']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'menu', 'menubar']);
const BLOCK = new Set([
  'address',
  'article',
  'blockquote',
  'body',
  'dd',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'li',
  'main',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'tr',
  'ul',
  'header',
  'footer',
  'details',
  'summary',
  'caption',
]);

export interface HtmlPage {
  title: string;
  text: string;
  /** Absolute http(s) links in document order (unnormalised). */
  links: string[];
}

export function extractHtml(html: string, pageUrl?: string): HtmlPage {
  const root = parseHtml(html);
  const titleEl = findAll(root, (e) => e.tag === 'title')[0];
  const title = titleEl ? collapse(rawText(titleEl)) : '';
  const content = mainContent(root);
  const blocks: string[] = [];
  const state = { line: '' };
  render(content.nodes, content.insideMain, blocks, state);
  // Inline content after the last block (text straight in the body) is a block of its own.
  if (state.line.trim()) blocks.push(collapse(state.line));
  const text = blocks
    .map((b) => b.trim())
    .filter(Boolean)
    .join('\n\n');
  return { title, text, links: pageUrl ? links(root, pageUrl) : [] };
}

/** `<main>` (or role=main), else the articles, else the body. */
function mainContent(root: HtmlElement): { nodes: HtmlNode[]; insideMain: boolean } {
  const mains = findOutermost(root, (e) => e.tag === 'main' || e.attrs.role === 'main');
  if (mains.length) return { nodes: [mains[0]!], insideMain: true };
  const articles = findOutermost(root, (e) => e.tag === 'article');
  if (articles.length) return { nodes: articles, insideMain: true };
  const body = findAll(root, (e) => e.tag === 'body')[0];
  return { nodes: body ? body.children : root.children, insideMain: false };
}

function isDropped(e: HtmlElement, insideMain: boolean): boolean {
  if (DROP.has(e.tag)) return true;
  if (!insideMain && CHROME.has(e.tag)) return true;
  if (e.attrs.role && CHROME_ROLES.has(e.attrs.role)) return true;
  return 'hidden' in e.attrs || e.attrs['aria-hidden'] === 'true';
}

function render(nodes: HtmlNode[], insideMain: boolean, blocks: string[], state: { line: string }): void {
  const flush = () => {
    if (state.line.trim()) blocks.push(collapse(state.line));
    state.line = '';
  };
  for (const node of nodes) {
    if (typeof node === 'string') {
      state.line += node;
      continue;
    }
    if (isDropped(node, insideMain)) continue;
    if (node.tag === 'br') {
      state.line += '\n';
      continue;
    }
    if (node.tag === 'pre') {
      flush();
      blocks.push(rawText(node).replace(/\s+$/, ''));
      continue;
    }
    if (node.tag === 'td' || node.tag === 'th') {
      state.line += ' ';
      render(node.children, insideMain, blocks, state);
      state.line += ' |';
      continue;
    }
    const block = BLOCK.has(node.tag);
    if (block) flush();
    if (node.tag === 'li') state.line += '- ';
    render(node.children, insideMain, blocks, state);
    if (node.tag === 'img' && node.attrs.alt) state.line += ` ${node.attrs.alt} `;
    if (block) flush();
  }
}

/** Collapses runs of spaces within lines; keeps explicit line breaks. */
function collapse(text: string): string {
  return text
    .split('\n')
    .map((l) => l.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

function rawText(e: HtmlElement): string {
  return e.children.map((c) => (typeof c === 'string' ? c : rawText(c))).join('');
}

function links(root: HtmlElement, pageUrl: string): string[] {
  let base = pageUrl;
  const baseEl = findAll(root, (e) => e.tag === 'base' && typeof e.attrs.href === 'string')[0];
  if (baseEl) {
    try {
      base = new URL(baseEl.attrs.href!, pageUrl).toString();
    } catch {
      /* keep the page URL */
    }
  }
  const out: string[] = [];
  for (const a of findAll(root, (e) => (e.tag === 'a' || e.tag === 'area') && typeof e.attrs.href === 'string')) {
    if (/\bnofollow\b/i.test(a.attrs.rel ?? '')) continue;
    try {
      const url = new URL(a.attrs.href!.trim(), base);
      if (url.protocol === 'http:' || url.protocol === 'https:') out.push(url.toString());
    } catch {
      /* not a URL */
    }
  }
  return out;
}
