// Deployment configuration on the page side: `override-config` and `updateConfig()` patches deep-merged
// over the deployment's `customization`, and the customization's colours/radius/font as --pal-* tokens.
import type { Customization } from '../../../protocol/public.js';

type Plain = Record<string, unknown>;
const isPlain = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Objects merge key by key; arrays and scalars from the patch replace; `undefined` in the patch is ignored. */
export function deepMerge<T extends Plain>(base: T, patch: Plain | undefined): T {
  if (!patch) return base;
  const out: Plain = { ...base };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined || key === '__proto__' || key === 'constructor') continue;
    out[key] = isPlain(value) && isPlain(out[key]) ? deepMerge(out[key] as Plain, value) : value;
  }
  return out as T;
}

/** The `override-config` attribute: a JSON object, or nothing when missing or malformed. */
export function parseOverrideConfig(text: string | null | undefined): Partial<Customization> | undefined {
  if (!text) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isPlain(value) ? (value as Partial<Customization>) : undefined;
  } catch {
    return undefined;
  }
}

// Values land inside a <style> element, so anything that could close the rule is refused.
const safe = (value: string | undefined): string | undefined =>
  value && !/[;{}<>\\]/.test(value) && value.length < 200 ? value : undefined;

/** `:host` declarations mapping customization onto the --pal-* tokens. Page CSS on the element still wins. */
export function customizationCss(c: Customization): string {
  const declarations: [string, string | undefined][] = [
    ['--pal-accent', safe(c.accent_color)],
    ['--pal-color-surface', safe(c.background_color)],
    ['--pal-color-text', safe(c.text_color)],
    ['--pal-radius', typeof c.radius === 'number' && Number.isFinite(c.radius) ? `${Math.max(0, c.radius)}px` : undefined],
    ['--pal-font', safe(c.font_family)],
    ['--pal-canvas-accent', safe(c.magic_canvas?.accent_color)],
  ];
  const body = declarations
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${v};`)
    .join(' ');
  return body ? `:host { ${body} }` : '';
}
