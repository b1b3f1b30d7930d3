// Text mode: a visitor can start by text (no device prompt), switch between voice and text during the
// call, and lands in text mode by themselves when the microphone is refused or missing.
import { expect, fixture, html } from '@open-wc/testing';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';

async function embed(): Promise<PalEmbed> {
  const wrapper = await fixture<HTMLDivElement>(
    html`<div style="width:1000px;height:700px"><pal-embed deployment-id="d123"></pal-embed></div>`,
  );
  const el = wrapper.querySelector('pal-embed') as PalEmbed;
  await waitFor(() => el.session?.state === 'idle' && el.session.deployment !== null, { what: 'init' });
  await el.updateComplete;
  return el;
}

async function settled(el: PalEmbed): Promise<void> {
  await el.updateComplete;
  const conversation = deep(el, 'pal-conversation') as (HTMLElement & { updateComplete: Promise<unknown> }) | null;
  await conversation?.updateComplete;
}

const chatPanel = (el: PalEmbed) => deep(el, 'pal-conversation', 'pal-transcript.panel')!;
const modeSwitch = (el: PalEmbed) => deep<HTMLButtonElement>(el, 'pal-conversation', '[part=mode-switch]')!;
const micButton = (el: PalEmbed) => deep<HTMLButtonElement>(el, 'pal-conversation', 'pal-controls', 'button')!;

describe('text mode', () => {
  it('starts by text from the preview: no device check, no microphone or camera, the chat open', async () => {
    const service = useFakeService({ customization: { show_haircheck: true } });
    const el = await embed();
    deep<HTMLButtonElement>(el, 'pal-preview', '[part=start-text]')!.click();
    await waitFor(() => el.state === 'connected', { what: 'connected' });
    await settled(el);
    expect(el.session!.textMode).to.equal(true);
    expect(service.transports[0]!.joined).to.include({ startAudio: false, startVideo: false, textMode: true });
    expect(chatPanel(el).hidden).to.equal(false);
    expect(modeSwitch(el).textContent!.trim()).to.equal('Switch to voice');
    expect(micButton(el).getAttribute('aria-pressed')).to.equal('false');
    await expect(deep(el, 'pal-conversation')).to.be.accessible();
  });

  it('switches to text and back during the call: the chat box gets the cursor, the microphone brings the voice back', async () => {
    const service = useFakeService({ customization: { show_haircheck: false } });
    const el = await embed();
    deep<HTMLButtonElement>(el, 'pal-preview', '[part=start]')!.click();
    await waitFor(() => el.state === 'connected', { what: 'connected' });
    await settled(el);
    const transport = service.transports[0]!;
    expect(transport.joined).to.include({ startAudio: true, textMode: false });
    expect(chatPanel(el).hidden).to.equal(true);

    // Open the chat, then choose text.
    deep(el, 'pal-conversation', 'pal-controls')!.shadowRoot!.querySelector<HTMLButtonElement>(`button[aria-label='Chat']`)!.click();
    await settled(el);
    expect(modeSwitch(el).textContent!.trim()).to.equal('Switch to text');
    modeSwitch(el).click();
    await waitFor(() => transport.textMode, { what: 'text mode reaches the room' });
    await settled(el);
    expect(transport.mic).to.equal(false);
    const input = deep<HTMLInputElement>(chatPanel(el), 'input[name=chat]')!;
    await waitFor(() => chatPanel(el).shadowRoot!.activeElement === input, { what: 'the chat box has the cursor' });

    // The microphone button is the way back to voice.
    micButton(el).click();
    await settled(el);
    expect(el.session!.textMode).to.equal(false);
    expect(transport.textMode).to.equal(false);
    expect(transport.mic).to.equal(true);
    expect(chatPanel(el).hidden).to.equal(true);
  });

  it('falls back to text when the microphone cannot be opened in the call, and says so', async () => {
    const service = useFakeService({ customization: { show_haircheck: false } });
    const el = await embed();
    deep<HTMLButtonElement>(el, 'pal-preview', '[part=start]')!.click();
    await waitFor(() => el.state === 'connected', { what: 'connected' });
    service.transports[0]!.notice('microphone_unavailable');
    await settled(el);
    expect(service.transports[0]!.textMode).to.equal(true);
    expect(chatPanel(el).hidden).to.equal(false);
    expect(deep(el, 'pal-conversation', '[part=notice]')!.textContent).to.contain('chatting by text');
  });

  it('offers to go on by text when the device check finds no microphone', async () => {
    const service = useFakeService({ customization: { show_haircheck: true } });
    // On the prototype: WebKit loses a patch set on navigator.mediaDevices itself at a garbage collection.
    const real = Object.getOwnPropertyDescriptor(MediaDevices.prototype, 'getUserMedia')!;
    MediaDevices.prototype.getUserMedia = function (this: MediaDevices, constraints?: MediaStreamConstraints) {
      return constraints?.audio
        ? Promise.reject(new DOMException('Permission denied', 'NotAllowedError'))
        : (real.value as MediaDevices['getUserMedia']).call(this, constraints);
    };
    try {
      const el = await embed();
      deep<HTMLButtonElement>(el, 'pal-preview', '[part=start]')!.click();
      await waitFor(() => el.session?.mode === 'haircheck', { what: 'device check' });
      await el.updateComplete;
      const check = deep(el, 'pal-haircheck')!;
      await waitFor(() => deep(check, '[role=alert]')?.textContent?.includes('microphone') === true, {
        what: 'the missing microphone is said',
      });
      const join = deep<HTMLButtonElement>(check, '[part=join]')!;
      expect(join.textContent!.trim()).to.equal('Continue by text');
      expect(deep(check, '[part=level]')).to.equal(null);
      await waitFor(() => deep<HTMLVideoElement>(check, 'video')?.srcObject !== null, { what: 'the camera still shows' });
      await expect(check).to.be.accessible();
      join.click();
      await waitFor(() => el.state === 'connected', { what: 'connected' });
      expect(service.transports[0]!.joined).to.include({ startAudio: false, textMode: true });
    } finally {
      Object.defineProperty(MediaDevices.prototype, 'getUserMedia', real);
    }
  });
});
