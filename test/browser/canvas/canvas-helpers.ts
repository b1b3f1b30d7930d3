import { fixture, html } from '@open-wc/testing';
import { defineParts } from '../../../src/palkit/components/define-parts.js';
defineParts();
import type { PalCanvas } from '../../../src/palkit/components/canvas/canvas.js';
import type { PalCanvasInteractionEvent } from '../../../src/palkit/components/events/canvas-interaction.js';
import { FakeLink } from '../protocol/fake-link.js';

export interface Rig {
  link: FakeLink;
  el: PalCanvas;
  events: PalCanvasInteractionEvent[];
  show(name: string, args: unknown, id?: string): Promise<void>;
  card(): HTMLElement | null;
  $<T extends Element = HTMLElement>(selector: string): T;
  $$<T extends Element = HTMLElement>(selector: string): T[];
  settle(): Promise<void>;
}

export async function canvasRig(): Promise<Rig> {
  const link = new FakeLink();
  const events: PalCanvasInteractionEvent[] = [];
  const stage = await fixture<HTMLDivElement>(html`<div style="position: relative; width: 900px; height: 700px">
    <pal-canvas .link=${link} @pal-canvas-interaction=${(e: PalCanvasInteractionEvent) => events.push(e)}></pal-canvas>
  </div>`);
  const el = stage.querySelector('pal-canvas')!;
  const settle = async () => {
    for (let i = 0; i < 3; i++) {
      await el.updateComplete;
      await new Promise((r) => setTimeout(r, 0));
    }
    // Let the card's entrance animation finish so contrast checks see the final colours.
    await Promise.all(el.shadowRoot!.getAnimations().map((a) => a.finished.catch(() => undefined)));
  };
  return {
    link,
    el,
    events,
    settle,
    async show(name, args, id = 'tc1') {
      link.toolCall(name, args, id);
      await settle();
    },
    card: () => el.shadowRoot!.querySelector<HTMLElement>('[part="card"]'),
    $: <T extends Element>(s: string) => el.shadowRoot!.querySelector<T>(`[part="card"] ${s}`)!,
    $$: <T extends Element>(s: string) => [...el.shadowRoot!.querySelectorAll<T>(`[part="card"] ${s}`)],
  };
}

export const idPattern = (toolCallId: string, type: string) =>
  new RegExp(`^ci_${toolCallId}_${type}_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`);
