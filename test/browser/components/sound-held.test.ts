// After a reload rejoins a call, the browser holds the page's Web Audio until the visitor's first gesture:
// the stage offers "Tap to turn on sound", and the tap brings the PAL's voice back.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import { defineParts } from '../../../src/palkit/components/define-parts.js';
import { sharedAudioContext } from '../../../src/palkit/client/media.js';
import { AUDIO_STARTING_MS, audioHeld } from '../../../src/palkit/client/audio-held.js';
import type { PalStage } from '../../../src/palkit/components/stage/stage.js';
import type { TransportParticipant } from '../../../src/palkit/client/transport/transport.js';
import { TestClock } from '../helpers/test-clock.js';
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

  it('waits for Web Audio to start on a page the visitor has used, and says it is held only if it does not', async () => {
    // A key pressed: the page has been used (its sticky activation), as by the clicks that start a call.
    await sendKeys({ press: 'a' });
    expect(navigator.userActivation.hasBeenActive).to.equal(true);
    const context = sharedAudioContext();
    await context.suspend();
    const clock = new TestClock();
    let held: boolean | undefined;
    // Web Audio starts a second later (Firefox opening its output took 1.1 s): not held.
    void audioHeld(300, clock).then((answer) => (held = answer));
    await clock.advance(1000);
    expect(held, 'no answer while it may still start').to.equal(undefined);
    await resumeWithinKey(context);
    await waitFor(() => held !== undefined, { what: 'the answer once Web Audio runs' });
    expect(held).to.equal(false);
    // Still suspended AUDIO_STARTING_MS on: held.
    await context.suspend();
    held = undefined;
    void audioHeld(300, clock).then((answer) => (held = answer));
    await clock.advance(AUDIO_STARTING_MS - 1);
    expect(held).to.equal(undefined);
    await clock.advance(1);
    await waitFor(() => held !== undefined, { what: 'the answer' });
    expect(held).to.equal(true);
    await resumeWithinKey(context);
  });
});

/** Resumes Web Audio within a key press (WebKit starts it only within a gesture: one a few seconds old may be too old). */
async function resumeWithinKey(context: AudioContext): Promise<void> {
  window.addEventListener('keydown', () => void context.resume(), { once: true });
  await sendKeys({ press: 'a' });
  await waitFor(() => context.state === 'running', { what: 'Web Audio running' });
}
