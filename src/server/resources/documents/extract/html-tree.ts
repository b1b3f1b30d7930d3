// A forgiving HTML tree: enough structure to find the main content, drop menus and collect links.
// htmlparser2's tokenizer reads the markup (all HTML5 named and numeric entities decoded, raw-text
// elements such as script and style kept whole); the tree is built here rather than by htmlparser2's
// Parser, whose open-element stack costs time in proportion to its depth on every tag. Here every tag
// costs a bounded amount of work, so crafted markup (thousands of unclosed elements, stray end tags,
// entity floods) is read in time linear in its size:
// - unclosed elements close with their parent; `<p>`, `<li>`, `<td>` … close an open one of their kind;
// - end tags with no open element of their name are ignored (found by a count per name, not a search);
// - elements deeper than MAX_DEPTH add their content to the deepest element instead of nesting further.
import { Tokenizer } from 'htmlparser2';

export interface HtmlElement {
  tag: string;
  attrs: Record<string, string>;
  children: HtmlNode[];
}
export type HtmlNode = HtmlElement | string;

/** Deeper nesting is flattened: no page needs more, and it keeps every walk of the tree shallow. */
export const MAX_DEPTH = 512;

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
/** Elements that implicitly end open elements of these kinds (p, li …) at the top of the stack. */
const SELF_NESTING_CLOSERS: Record<string, readonly string[]> = {
  p: ['p'],
  li: ['li'],
  dt: ['dt', 'dd'],
  dd: ['dt', 'dd'],
  tr: ['td', 'th', 'tr'],
  td: ['td', 'th'],
  th: ['td', 'th'],
  option: ['option'],
};

export function parseHtml(html: string): HtmlElement {
  const tree = new TreeBuilder();
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    tree.callbacks(() => html),
  );
  tokenizer.write(html);
  tokenizer.end();
  return tree.root;
}

class TreeBuilder {
  readonly root: HtmlElement = { tag: '#root', attrs: {}, children: [] };
  private readonly stack: HtmlElement[] = [this.root];
  /** How many elements of each name are open on the stack. */
  private readonly open = new Map<string, number>();
  /** Open elements beyond MAX_DEPTH (not on the stack: their content went to the deepest element). */
  private overflow = 0;
  private text = '';
  private tag: HtmlElement | null = null;
  private attrName = '';
  private attrValue = '';

  callbacks(source: () => string) {
    const slice = (start: number, end: number) => source().slice(start, end);
    return {
      ontext: (start: number, end: number) => void (this.text += slice(start, end)),
      ontextentity: (codepoint: number) => void (this.text += String.fromCodePoint(codepoint)),
      onopentagname: (start: number, end: number) => {
        this.flushText();
        this.tag = { tag: slice(start, end).toLowerCase(), attrs: {}, children: [] };
      },
      onattribname: (start: number, end: number) => {
        this.attrName = slice(start, end).toLowerCase();
        this.attrValue = '';
      },
      onattribdata: (start: number, end: number) => void (this.attrValue += slice(start, end)),
      onattribentity: (codepoint: number) => void (this.attrValue += String.fromCodePoint(codepoint)),
      onattribend: () => {
        // The first of a repeated attribute wins, as in browsers.
        if (this.tag && !(this.attrName in this.tag.attrs)) this.tag.attrs[this.attrName] = this.attrValue;
      },
      // `<div/>` opens a div, as in browsers (only void elements have no content).
      onopentagend: () => this.openTag(),
      onselfclosingtag: () => this.openTag(),
      onclosetag: (start: number, end: number) => {
        this.flushText();
        this.closeTag(slice(start, end).toLowerCase());
      },
      oncdata: () => undefined,
      oncomment: () => undefined,
      ondeclaration: () => undefined,
      onprocessinginstruction: () => undefined,
      onend: () => this.flushText(),
    };
  }

  private get top(): HtmlElement {
    return this.stack[this.stack.length - 1]!;
  }

  private flushText(): void {
    if (!this.text) return;
    this.top.children.push(this.text);
    this.text = '';
  }

  private openTag(): void {
    const element = this.tag;
    this.tag = null;
    if (!element) return;
    const closes = SELF_NESTING_CLOSERS[element.tag];
    // A new row ends the open cell and then the open row (each element popped was pushed once).
    while (closes && this.overflow === 0 && this.stack.length > 1 && closes.includes(this.top.tag)) this.pop();
    this.top.children.push(element);
    if (VOID.has(element.tag)) return;
    if (this.stack.length > MAX_DEPTH) {
      this.overflow++;
      return;
    }
    this.stack.push(element);
    this.open.set(element.tag, (this.open.get(element.tag) ?? 0) + 1);
  }

  private closeTag(name: string): void {
    if (VOID.has(name)) return;
    if (this.overflow > 0) {
      // Inside flattened nesting an end tag closes the innermost flattened element, whatever its name.
      this.overflow--;
      return;
    }
    if (!this.open.get(name)) return;
    // Each element popped here was pushed once, so the search costs no more than the pushes did.
    while (this.stack.length > 1 && this.pop() !== name);
  }

  private pop(): string {
    const element = this.stack.pop()!;
    this.open.set(element.tag, this.open.get(element.tag)! - 1);
    return element.tag;
  }
}

/** Elements matching a predicate, in document order, not looking inside a match (the outermost ones). */
export function findOutermost(node: HtmlElement, match: (e: HtmlElement) => boolean): HtmlElement[] {
  return find(node, match, false);
}

/** Every element matching a predicate, in document order. */
export function findAll(node: HtmlElement, match: (e: HtmlElement) => boolean): HtmlElement[] {
  return find(node, match, true);
}

/** The elements below `node` matching `match`, in document order, looking inside a match or not. */
function find(node: HtmlElement, match: (e: HtmlElement) => boolean, insideMatches: boolean): HtmlElement[] {
  const out: HtmlElement[] = [];
  const pending: HtmlNode[] = [...node.children].reverse();
  while (pending.length) {
    const child = pending.pop()!;
    if (typeof child === 'string') continue;
    const matched = match(child);
    if (matched) out.push(child);
    if (!matched || insideMatches) for (let i = child.children.length - 1; i >= 0; i--) pending.push(child.children[i]!);
  }
  return out;
}
