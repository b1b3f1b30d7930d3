// Tokens set on the outer element (by the page or by the deployment's customization) reach every nested
// part, and theme: 'dark' repaints them.
import { expect, fixture, html } from '@open-wc/testing';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';

async function inCall(style = '', overrideConfig?: object): Promise<PalEmbed> {
  const wrapper = await fixture<HTMLDivElement>(html`<div style="width:1000px"></div>`);
  const config = overrideConfig ? ` override-config='${JSON.stringify(overrideConfig)}'` : '';
  wrapper.innerHTML = `<pal-embed deployment-id="d123" style="${style}"${config}></pal-embed>`;
  const el = wrapper.querySelector('pal-embed') as PalEmbed;
  await waitFor(() => el.session?.state === 'idle' && el.session.deployment !== null, { what: 'init' });
  await el.startConversation();
  await waitFor(() => el.state === 'connected', { what: 'connected' });
  await el.updateComplete;
  await waitFor(() => deep(el, 'pal-conversation', 'pal-controls', '[role=toolbar]') !== null, { what: 'controls' });
  return el;
}

const menu = (el: PalEmbed) => getComputedStyle(deep(el, 'pal-conversation', 'pal-controls', '.menu')!);
const controlsHost = (el: PalEmbed) => getComputedStyle(deep(el, 'pal-conversation', 'pal-controls')!);

describe('theming cascade', () => {
  beforeEach(() => useFakeService({ customization: { show_haircheck: false } }));

  it('--pal-color-surface on the embed paints the nested control bar', async () => {
    const el = await inCall('--pal-color-surface: rgb(255, 247, 237)');
    expect(controlsHost(el).backgroundColor).to.equal('rgb(255, 247, 237)');
  });

  it('--pal-color-text on the embed colours the nested parts', async () => {
    const el = await inCall('--pal-color-text: rgb(67, 20, 7)');
    expect(controlsHost(el).color).to.equal('rgb(67, 20, 7)');
  });

  it("--pal-font on the embed sets the nested parts' type", async () => {
    const el = await inCall('--pal-font: Georgia, serif');
    expect(controlsHost(el).fontFamily).to.equal('Georgia, serif');
  });

  it('--pal-radius on the embed rounds the nested devices menu', async () => {
    const el = await inCall('--pal-radius: 22px');
    expect(menu(el).borderTopLeftRadius).to.equal('22px');
  });

  it('deployment background_color, text_color, radius and font_family reach the nested parts', async () => {
    const el = await inCall('', { background_color: 'rgb(1, 2, 3)', text_color: 'rgb(4, 5, 6)', radius: 5, font_family: 'Courier' });
    expect(controlsHost(el).backgroundColor).to.equal('rgb(1, 2, 3)');
    expect(menu(el).borderTopLeftRadius).to.equal('5px');
    expect(controlsHost(el).color).to.equal('rgb(4, 5, 6)');
    expect(controlsHost(el).fontFamily).to.equal('Courier');
  });

  it('is light by default, and theme dark (override-config, then updateConfig) repaints the nested parts', async () => {
    const el = await inCall();
    expect(controlsHost(el).backgroundColor).to.equal('rgb(255, 255, 255)');
    el.updateConfig({ theme: 'dark' });
    await el.updateComplete;
    expect(el.getAttribute('theme')).to.equal('dark');
    expect(controlsHost(el).backgroundColor).to.equal('rgb(23, 23, 31)');
    expect(controlsHost(el).color).to.equal('rgb(241, 241, 245)');
    const dark = await inCall('', { theme: 'dark' });
    expect(controlsHost(dark).backgroundColor).to.equal('rgb(23, 23, 31)');
  });

  it('page tokens still win over the dark theme', async () => {
    const el = await inCall('--pal-color-surface: rgb(9, 9, 9)', { theme: 'dark' });
    expect(controlsHost(el).backgroundColor).to.equal('rgb(9, 9, 9)');
  });
});
