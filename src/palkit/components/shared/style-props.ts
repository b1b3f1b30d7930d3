// Inline styles set through the CSSOM only: Lit's styleMap writes a `style` attribute on its first
// render, which a page whose Content-Security-Policy has no 'unsafe-inline' for style attributes refuses
// (style-src-attr); `element.style.setProperty` is always allowed.
import { noChange } from 'lit';
import { Directive, PartType, directive, type AttributePart, type PartInfo } from 'lit/directive.js';

/** Property names as in CSS (`padding-block`, `--pal-x`) or camelCase (`paddingBlock`); null/undefined removes. */
export type StyleProps = Record<string, string | number | null | undefined>;

const kebab = (name: string) => (name.startsWith('--') || name.includes('-') ? name : name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));

class StylePropsDirective extends Directive {
  #previous = new Set<string>();

  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ATTRIBUTE || part.name !== 'style')
      throw new Error('styleProps() belongs in a style attribute: style=${styleProps({...})}');
  }

  render(_props: StyleProps): typeof noChange {
    return noChange;
  }

  override update(part: AttributePart, [props]: [StyleProps]): typeof noChange {
    const { style } = part.element as HTMLElement;
    const next = new Set<string>();
    for (const [name, value] of Object.entries(props)) {
      const property = kebab(name);
      if (value === null || value === undefined) continue;
      next.add(property);
      style.setProperty(property, String(value));
    }
    for (const property of this.#previous) if (!next.has(property)) style.removeProperty(property);
    this.#previous = next;
    return noChange;
  }
}

/** Like styleMap, but never through the `style` attribute (safe under a strict Content-Security-Policy). */
export const styleProps = directive(StylePropsDirective);
