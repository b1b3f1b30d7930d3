// Issue 25, item 9: the parts the README promises on the widget and the embed reach the host page:
// `::part(captions|transcript|banner|card|recording)` styles them from outside.
import { expect, fixture, html } from '@open-wc/testing';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import { PalDeploymentElement } from '../../../src/palkit/components/shared/deployment-element.js';
import type { PalWidget } from '../../../src/palkit/components/widget/widget.js';
import { StandInTransport } from '../../../stories/support/transport.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, openChat, useFakeService } from '../helpers/deployment.js';

class RecordedTransport extends StandInTransport {
  readonly recording = true;
}

/** Where each promised part lives inside pal-conversation. */
const PARTS: Record<string, string[]> = {
  captions: ['pal-transcript.captions', '[part=captions]'],
  transcript: ['pal-transcript.panel', '[part=transcript]'],
  banner: ['pal-disclosure', '[part=banner]'],
  card: ['pal-canvas', '[part=card]'],
  recording: ['pal-stage', '[part=recording]'],
};

for (const tag of ['pal-embed', 'pal-widget'] as const) {
  it(`${tag} forwards ::part(captions|transcript|banner|card|recording) to the page`, async () => {
    const service = useFakeService({ customization: { show_haircheck: false } });
    PalDeploymentElement.transportFactory = () => {
      const transport = new RecordedTransport();
      service.transports.push(transport);
      return transport;
    };
    const style = Object.keys(PARTS)
      .map((part) => `${tag}::part(${part}) { outline: 3px solid rgb(1, 2, 3); }`)
      .join('\n');
    const root = await fixture<HTMLElement>(
      tag === 'pal-embed'
        ? html`<div style="width: 960px; height: 540px"><style>${style}</style><pal-embed deployment-id="d123"></pal-embed></div>`
        : html`<div><style>${style}</style><pal-widget deployment-id="d123"></pal-widget></div>`,
    );
    const el = root.querySelector(tag) as PalEmbed | PalWidget;
    await waitFor(() => el.session?.deployment != null && el.session.state === 'idle', { what: 'init' });
    await el.startConversation();
    await waitFor(() => el.state === 'connected', { what: 'connected' });
    const room = service.transports[0]!;
    room.receive({
      message_type: 'conversation',
      event_type: 'conversation.disclosure',
      conversation_id: 'c42',
      properties: { visual_disclosure: 'You are talking with an AI system.', verbal_disclosure: '', state: 'delivering' },
    });
    room.receive({
      message_type: 'conversation',
      event_type: 'conversation.tool_call',
      conversation_id: 'c42',
      properties: { name: 'canvas_show_text', arguments: JSON.stringify({ title: 'Hours', body: 'Open at nine.' }), tool_call_id: 'tc1' },
    });
    // The chat panel (part transcript) renders while it is open.
    openChat(el);
    for (const [part, path] of Object.entries(PARTS)) {
      await waitFor(() => deep(el, 'pal-conversation', ...path) !== null, { what: part });
      const color = getComputedStyle(deep(el, 'pal-conversation', ...path)!).outlineColor;
      expect(color, `::part(${part})`).to.equal('rgb(1, 2, 3)');
    }
  });
}
