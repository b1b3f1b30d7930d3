// After a reload rejoins a call, the browser holds the page's Web Audio until the visitor's first gesture:
// the stage offers "Tap to turn on sound", and the tap brings the PAL's voice back.
import { expect, fixture, html } from '@open-wc/testing';
import { defineParts } from '../../../src/palkit/components/define-parts.js';
import { sharedAudioContext } from '../../../src/palkit/client/media.js';
import type { PalStage } from '../../../src/palkit/components/stage/stage.js';
import type { TransportParticipant } from '../../../src/palkit/client/transport/transport.js';
import { waitFor } from '../helpers/wait-for.js';

defineParts();

describe('sound held by the browser', () => {
  it('shows "Tap to turn on sound" while Web Audio is suspended, and the tap resumes it', async () => {
    const context = sharedAudioContext();
    const voice = context.createMediaStreamDestination();
    await context.suspend();
    const pal: TransportParticipant = { id: 'pal', name: 'Ada', role: 'pal', local: false, videoTrack: null, audioTrack: voice.stream.getAudioTracks()[0]! };
    const stage = await fixture<PalStage>(html`<pal-stage .participants=${[pal]}></pal-stage>`);
    await waitFor(() => stage.shadowRoot!.querySelector('button.sound') !== null, { what: 'the sound button' });
    const button = stage.shadowRoot!.querySelector<HTMLButtonElement>('button.sound')!;
    expect(button.textContent).to.contain('Tap to turn on sound');
    await expect(stage).to.be.accessible();
    button.click();
    await waitFor(() => context.state === 'running', { what: 'audio resumed' });
    await stage.updateComplete;
    expect(stage.shadowRoot!.querySelector('button.sound')).to.equal(null);
  });

  it('shows nothing when audio plays', async () => {
    const context = sharedAudioContext();
    await context.resume();
    const voice = context.createMediaStreamDestination();
    const pal: TransportParticipant = { id: 'pal', name: 'Ada', role: 'pal', local: false, videoTrack: null, audioTrack: voice.stream.getAudioTracks()[0]! };
    const stage = await fixture<PalStage>(html`<pal-stage .participants=${[pal]}></pal-stage>`);
    // The stage has asked by the time the voice plays: play() settled, and Web Audio was found running.
    const audio = () => stage.shadowRoot!.querySelector<HTMLAudioElement>('audio[data-track]');
    await waitFor(() => audio()?.srcObject instanceof MediaStream && !audio()!.paused && audio()!.currentTime > 0, { what: 'the voice playing' });
    await stage.updateComplete;
    expect(stage.shadowRoot!.querySelector('button.sound')).to.equal(null);
  });
});
