// Mounts an in-call part (disclosure, transcript, canvas) on a stand-in link inside a stage-like box.
import { StandInLink, type ScriptStep } from './stand-in.js';

export interface PartOptions {
  attributes?: Record<string, string | undefined>;
  frame?: string;
  frameAttributes?: Record<string, string>;
  /** Messages delivered right after mounting (same tick) and later ones, spaced by `after`. */
  script?: ScriptStep[];
  /** Runs with the element and its link once mounted (e.g. to fill thousands of entries). */
  setup?: (el: HTMLElement, link: StandInLink) => void;
}

export function mountPart(tag: 'pal-disclosure' | 'pal-transcript' | 'pal-canvas', options: PartOptions = {}): HTMLElement {
  const frame = document.createElement('div');
  frame.style.cssText =
    options.frame ??
    'position: relative; width: min(100%, 900px); height: 520px; border-radius: 12px; background: linear-gradient(135deg, #28425e, #141c2b);';
  for (const [name, value] of Object.entries(options.frameAttributes ?? {})) frame.setAttribute(name, value);
  const el = document.createElement(tag) as HTMLElement & { link: StandInLink | null };
  for (const [name, value] of Object.entries(options.attributes ?? {})) if (value) el.setAttribute(name, value);
  const link = new StandInLink();
  el.link = link;
  frame.append(el);
  // Deliver once the element is in the document (it subscribes to the link when connected).
  requestAnimationFrame(() => {
    options.setup?.(el, link);
    link.play(options.script ?? []);
  });
  return frame;
}
