// Vue 3 with the palkit elements: `pal-*` tags are custom elements (isPalElement), attributes and
// `@pal-…` listeners (onPal… in render functions) reach them.
import { expect } from '@open-wc/testing';
import { createApp, h, nextTick, ref } from 'vue';
import { isPalElement } from '../../../src/palkit/vue/index.js';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import type { PalWidget } from '../../../src/palkit/components/widget/widget.js';
import type { PalReadyEvent } from '../../../src/palkit/components/events/index.js';
import { waitFor } from '../helpers/wait-for.js';
import { useFakeService } from '../helpers/deployment.js';

describe('palkit in Vue', () => {
  it('isPalElement recognises exactly the pal- tags', () => {
    expect(isPalElement('pal-embed')).to.equal(true);
    expect(isPalElement('pal-widget')).to.equal(true);
    expect(isPalElement('my-button')).to.equal(false);
    expect(isPalElement('div')).to.equal(false);
  });

  it('renders pal-embed with attributes and hears pal-ready through onPalReady', async () => {
    useFakeService();
    const container = document.body.appendChild(document.createElement('div'));
    const ready: PalReadyEvent[] = [];
    const lang = ref('fr');
    const app = createApp({
      render: () => h('pal-embed', { 'deployment-id': 'd123', lang: lang.value, onPalReady: (e: PalReadyEvent) => ready.push(e) }),
    });
    app.mount(container);
    const el = container.querySelector('pal-embed') as PalEmbed;
    expect(el.deploymentId).to.equal('d123');
    await waitFor(() => ready.length === 1, { what: 'pal-ready' });
    expect(ready[0]!.detail.deploymentId).to.equal('d123');
    lang.value = 'ja';
    await nextTick();
    expect(el.lang).to.equal('ja');
    app.unmount();
    container.remove();
  });

  it('<pal-widget open> opens the popup at load, and open() still works (Vue assigns the attribute as a property)', async () => {
    useFakeService();
    const container = document.body.appendChild(document.createElement('div'));
    const open = ref<string | boolean>('');
    const app = createApp({ render: () => h('pal-widget', { 'deployment-id': 'd123', open: open.value }) });
    app.mount(container);
    const el = container.querySelector('pal-widget') as PalWidget;
    expect(typeof el.open, 'the method survives').to.equal('function');
    await waitFor(() => el.opened, { what: 'opened from the attribute' });
    open.value = false;
    await nextTick();
    await waitFor(() => !el.opened, { what: 'closed when the binding turns false' });
    await el.open();
    expect(el.opened).to.equal(true);
    app.unmount();
    container.remove();
  });
});
