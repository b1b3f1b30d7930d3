// The chat log's scrollbar in the dark theme: Firefox drew an unstyled scroller's track white beside the dark
// log (a 12 px white strip, 320 px embed). Scrollbars take the theme's colours (not in WebKit, which has no
// scrollbar-color: its scrollbars overlay the content).
import { expect, fixture, html } from '@open-wc/testing';
import type { PalDeploymentElement } from '../../../src/palkit/components/shared/deployment-element.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, openChat, useFakeService } from '../helpers/deployment.js';

describe('scrollbars in the dark theme', () => {
  it("the open chat's log draws its scrollbar in the theme's colours", async function () {
    if (!CSS.supports('scrollbar-color', 'red transparent')) this.skip();
    useFakeService({ channel: 'embed', customization: { show_haircheck: false } });
    const box = await fixture<HTMLElement>(
      html`<div style="width:288px;height:512px"><pal-embed deployment-id="d123" override-config='{"theme":"dark"}'></pal-embed></div>`,
    );
    const el = box.querySelector('pal-embed') as PalDeploymentElement;
    await waitFor(() => el.session?.deployment != null && el.session.state === 'idle', { what: 'init' });
    await el.startConversation();
    await waitFor(() => el.state === 'connected' && deep(el, 'pal-conversation', 'pal-controls') !== null, { what: 'connected' });
    openChat(el);
    await waitFor(() => deep(el, 'pal-conversation', 'pal-transcript.panel:not([hidden])') !== null, { what: 'the chat open' });
    const log = deep(el, 'pal-conversation', 'pal-transcript.panel', '.scroller')!;
    const style = getComputedStyle(log);
    expect(style.colorScheme).to.equal('dark');
    // The thumb in the dark theme's muted text colour (#a5a5b4) over a transparent track (the log's surface).
    expect(style.scrollbarColor.replace('transparent', 'rgba(0, 0, 0, 0)')).to.equal('rgb(165, 165, 180) rgba(0, 0, 0, 0)');
  });
});
