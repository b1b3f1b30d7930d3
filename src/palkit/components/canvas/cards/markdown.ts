// A small, safe Markdown subset rendered straight to Lit templates (text bindings only, never HTML
// strings): headings, paragraphs, bold, italic, inline code, fenced code, bullet and numbered lists,
// quotes, and links restricted to http/https.
import { html, nothing, type TemplateResult } from 'lit';

type Inline = TemplateResult | string;

const inlinePattern = /`([^`]+)`|\*\*(.+?)\*\*|__(.+?)__|\*([^*\s][^*]*?)\*|_([^_\s][^_]*?)_|\[([^\]]+)\]\(([^)\s]+)\)/;

function safeHref(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export function renderInline(text: string, depth = 0): Inline[] {
  const out: Inline[] = [];
  let rest = text;
  while (rest) {
    const m = depth < 4 ? inlinePattern.exec(rest) : null;
    if (!m) {
      out.push(rest);
      break;
    }
    if (m.index > 0) out.push(rest.slice(0, m.index));
    const [whole, code, bold1, bold2, em1, em2, linkText, href] = m;
    if (code !== undefined) out.push(html`<code>${code}</code>`);
    else if (bold1 !== undefined || bold2 !== undefined) out.push(html`<strong>${renderInline(bold1 ?? bold2!, depth + 1)}</strong>`);
    else if (em1 !== undefined || em2 !== undefined) out.push(html`<em>${renderInline(em1 ?? em2!, depth + 1)}</em>`);
    else if (linkText !== undefined) {
      const safe = safeHref(href!);
      const label = renderInline(linkText, depth + 1);
      out.push(safe ? html`<a href=${safe} target="_blank" rel="noopener noreferrer">${label}</a>` : html`${label}`);
    }
    rest = rest.slice(m.index + whole.length);
  }
  return out;
}

type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'quote'; text: string }
  | { kind: 'list'; ordered: boolean; items: string[] };

export function parseBlocks(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (trimmed.startsWith('```')) {
      flush();
      const code: string[] = [];
      while (++i < lines.length && !lines[i]!.trim().startsWith('```')) code.push(lines[i]!);
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(trimmed);
    const bullet = /^[-*+]\s+(.*)$/.exec(trimmed);
    const numbered = /^\d{1,3}[.)]\s+(.*)$/.exec(trimmed);
    if (!trimmed) flush();
    else if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1]!.length, text: heading[2]! });
    } else if (bullet || numbered) {
      flush();
      const ordered = !bullet;
      const last = blocks[blocks.length - 1];
      const item = (bullet ?? numbered)![1]!;
      if (last?.kind === 'list' && last.ordered === ordered) last.items.push(item);
      else blocks.push({ kind: 'list', ordered, items: [item] });
    } else if (trimmed.startsWith('>')) {
      flush();
      blocks.push({ kind: 'quote', text: trimmed.replace(/^>\s?/, '') });
    } else {
      const last = blocks[blocks.length - 1];
      // A continuation line of a list item (indented) joins the item.
      if (!paragraph.length && last?.kind === 'list' && /^\s+/.test(line)) last.items[last.items.length - 1] += ` ${trimmed}`;
      else paragraph.push(trimmed);
    }
  }
  flush();
  return blocks;
}

function renderBlock(block: Block): TemplateResult {
  switch (block.kind) {
    case 'heading':
      // Card headings sit under the card title, so levels start at h3.
      return block.level <= 1 ? html`<h3>${renderInline(block.text)}</h3>` : html`<h4>${renderInline(block.text)}</h4>`;
    case 'paragraph':
      return html`<p>${renderInline(block.text)}</p>`;
    case 'code':
      return html`<pre><code>${block.text}</code></pre>`;
    case 'quote':
      return html`<blockquote>${renderInline(block.text)}</blockquote>`;
    case 'list': {
      const items = block.items.map((item) => html`<li>${renderInline(item)}</li>`);
      return block.ordered ? html`<ol>${items}</ol>` : html`<ul>${items}</ul>`;
    }
  }
}

export function renderMarkdown(source: string): TemplateResult {
  const blocks = parseBlocks(source);
  return html`${blocks.length ? blocks.map(renderBlock) : nothing}`;
}
