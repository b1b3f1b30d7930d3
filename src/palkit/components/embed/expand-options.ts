// `expand-options` of pal-embed: whether the card expands into a modal for the call, and its shape.

export interface ExpandOptions {
  enabled: boolean;
  aspect: 'horizontal' | 'vertical';
  customAspect: string | null;
  fullscreen: boolean;
  maxWidth: number | null;
  maxHeight: number | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);

export function parseExpandOptions(text: string | null | undefined): ExpandOptions {
  let raw: Record<string, unknown> = {};
  try {
    const value: unknown = text ? JSON.parse(text) : {};
    if (value && typeof value === 'object' && !Array.isArray(value)) raw = value as Record<string, unknown>;
  } catch {
    // Malformed JSON: stay inline.
  }
  const custom =
    typeof raw.custom_aspect === 'string' && /^\d+(\.\d+)?\s*\/\s*\d+(\.\d+)?$/.test(raw.custom_aspect) ? raw.custom_aspect : null;
  return {
    enabled: raw.enabled === true,
    aspect: raw.aspect === 'vertical' ? 'vertical' : 'horizontal',
    customAspect: custom,
    fullscreen: raw.fullscreen === true,
    maxWidth: num(raw.max_width),
    maxHeight: num(raw.max_height),
  };
}

/** Custom properties the expanded card reads. */
export function expandStyle(options: ExpandOptions): Record<string, string> {
  return {
    '--pal-expand-aspect': options.customAspect ?? (options.aspect === 'vertical' ? '9 / 16' : '16 / 9'),
    ...(options.maxWidth ? { '--pal-expand-max-width': `${options.maxWidth}px` } : {}),
    ...(options.maxHeight ? { '--pal-expand-max-height': `${options.maxHeight}px` } : {}),
  };
}
