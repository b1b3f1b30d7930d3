// A small, forgiving HTML tree builder: enough structure to find the main content, drop menus and
// collect links, without a DOM library. Unclosed elements close with their parent, stray end tags are
// ignored, raw-text elements (script, style …) keep their content out of the text.
export interface HtmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: HtmlNode[];
}
export type HtmlNode = HtmlElement | string;

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'noscript', 'template', 'xmp']);
/** Elements that implicitly end an open element of the same kind (p, li …). */
const SELF_NESTING_CLOSERS: Record<string, string[]> = {
  p: ['p'], li: ['li'], dt: ['dt', 'dd'], dd: ['dt', 'dd'], tr: ['tr'], td: ['td', 'th'], th: ['td', 'th'], option: ['option'],
};

const ATTR = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

function parseAttrs(source: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of source.matchAll(ATTR)) {
    const name = m[1]!.toLowerCase();
    if (!(name in attrs)) attrs[name] = decodeEntities(m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

export function parseHtml(html: string): HtmlElement {
  const root: HtmlElement = { tag: '#root', attrs: {}, children: [] };
  const stack: HtmlElement[] = [root];
  const top = () => stack[stack.length - 1]!;
  const tagRe = /<!--[\s\S]*?(?:-->|$)|<!\[CDATA\[[\s\S]*?(?:\]\]>|$)|<![^>]*>|<\?[^>]*>|<\/([a-zA-Z][\w:-]*)[^>]*>|<([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = tagRe.exec(html))) {
    if (m.index > last) top().children.push(html.slice(last, m.index));
    last = tagRe.lastIndex;
    const [, endName, startName, attrSource] = m;
    if (endName) {
      const name = endName.toLowerCase();
      const at = stack.map((e) => e.tag).lastIndexOf(name);
      if (at > 0) stack.length = at;
      continue;
    }
    if (!startName) continue; // comment, doctype, processing instruction
    const tag = startName.toLowerCase();
    const closes = SELF_NESTING_CLOSERS[tag];
    if (closes && closes.includes(top().tag)) stack.pop();
    const element: HtmlElement = { tag, attrs: parseAttrs(attrSource ?? ''), children: [] };
    top().children.push(element);
    if (VOID.has(tag) || /\/\s*$/.test(attrSource ?? '')) continue;
    if (RAW_TEXT.has(tag)) {
      const close = new RegExp(`</${tag}\\s*>`, 'ig');
      close.lastIndex = last;
      const end = close.exec(html);
      element.children.push(html.slice(last, end ? end.index : html.length));
      last = end ? close.lastIndex : html.length;
      tagRe.lastIndex = last;
      continue;
    }
    stack.push(element);
  }
  if (last < html.length) top().children.push(html.slice(last));
  return root;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', mdash: '—', ndash: '–', hellip: '…', copy: '©', reg: '®', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“', laquo: '«', raquo: '»', middot: '·', bull: '•', eacute: 'é', egrave: 'è', uuml: 'ü', ouml: 'ö', auml: 'ä', szlig: 'ß' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[body.toLowerCase()] ?? whole;
  });
}

/** Depth-first search for elements matching a predicate. */
export function findAll(node: HtmlElement, match: (e: HtmlElement) => boolean, out: HtmlElement[] = []): HtmlElement[] {
  for (const child of node.children) {
    if (typeof child === 'string') continue;
    if (match(child)) out.push(child);
    findAll(child, match, out);
  }
  return out;
}
