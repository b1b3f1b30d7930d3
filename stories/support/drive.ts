// Mounts a deployment element (widget, embed, landing page) on the stand-in session and walks it to the
// state a story shows, through the element's public methods, as a visitor would.
import type { PalDeploymentElement } from '../../src/palkit/components/shared/deployment-element.js';

export type Step = 'open' | 'start' | 'wrong-password' | 'connected' | 'end';

const waitFor = async (check: () => boolean, ms = 8000): Promise<void> => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('story step timed out');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
};

async function run(el: PalDeploymentElement & { open?: () => Promise<void> }, steps: Step[]): Promise<void> {
  await waitFor(() => !!el.session?.deployment || el.state === 'error');
  for (const step of steps) {
    switch (step) {
      case 'open':
        await el.open?.();
        break;
      case 'start':
        void el.startConversation();
        break;
      case 'wrong-password':
        await waitFor(() => el.session?.gate === 'password');
        void el.session!.submitPassword('not-the-password');
        break;
      case 'connected':
        await waitFor(() => el.state === 'connected');
        break;
      case 'end':
        await waitFor(() => el.state === 'connected');
        await new Promise((resolve) => setTimeout(resolve, 300));
        await el.endConversation();
        break;
    }
  }
}

export interface MountOptions {
  attributes?: Record<string, string | undefined>;
  steps?: Step[];
  /** CSS of the box the element sits in. */
  frame?: string;
  /** Attributes of the box (e.g. `dir`, `lang`). */
  frameAttributes?: Record<string, string>;
}

/** The element inside its frame; the steps run once the deployment has loaded. */
export function mount(tag: 'pal-widget' | 'pal-embed' | 'pal-landing', options: MountOptions = {}): HTMLElement {
  const frame = document.createElement('div');
  frame.style.cssText = options.frame ?? 'width: min(100%, 960px);';
  for (const [name, value] of Object.entries(options.frameAttributes ?? {})) frame.setAttribute(name, value);
  const el = document.createElement(tag) as PalDeploymentElement;
  for (const [name, value] of Object.entries(options.attributes ?? {}))
    if (value !== undefined && value !== '') el.setAttribute(name, value);
  frame.append(el);
  if (options.steps?.length) void run(el, options.steps).catch((error: unknown) => console.warn(String(error)));
  return frame;
}
