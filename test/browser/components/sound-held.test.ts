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
import { nextTurn, waitFor } from '../helpers/wait-for.js';

defineParts();

describe('sound held by the browser', () => {
  it('shows "Tap to turn on sound" while Web Audio is suspended, and the tap resumes it', async () => {
    const context = sharedAudioContext();
    const voice = context.createMediaStreamDestination();
    await context.suspend();
    const pal: TransportParticipant = {
      id: 'pal',
      name: 'Ada',
      role: 'pal',
      local: false,
      videoTrack: null,
      audioTrack: voice.stream.getAudioTracks()[0]!,
    };
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

  // The stage's two questions, answered without real audio output (whether an <audio> advances depends on the
  // machine's sound and the engine's version): the browser's answer to play() is stubbed, Web Audio's state is
  // real. That the voice is heard is the real-time tier's (test/realtime/browser/sound-held.test.ts).
  it('shows nothing when audio plays', async () => {
    const context = sharedAudioContext();
    await context.resume();
    const played = answerPlay(() => Promise.resolve());
    try {
      const stage = await fixture<PalStage>(html`<pal-stage .participants=${[palVoice()]}></pal-stage>`);
      await waitFor(() => played.calls.length > 0, { what: 'the stage playing the voice' });
      await played.settled();
      // Web Audio runs, so audioHeld answers at once: a turn of the event loop lets the stage hear it.
      await nextTurn();
      await stage.updateComplete;
      expect(stage.shadowRoot!.querySelector('button.sound')).to.equal(null);
    } finally {
      played.restore();
    }
  });

  it('offers "Tap to turn on sound" when the browser refuses to play the voice', async () => {
    const context = sharedAudioContext();
    await context.resume();
    const played = answerPlay(() => Promise.reject(new DOMException('play() needs a gesture', 'NotAllowedError')));
    try {
      const stage = await fixture<PalStage>(html`<pal-stage .participants=${[palVoice()]}></pal-stage>`);
      await waitFor(() => stage.shadowRoot!.querySelector('button.sound'), { what: 'the sound button' });
      expect(played.calls.length).to.be.greaterThan(0);
    } finally {
      played.restore();
    }
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

/** The PAL as a participant whose voice is a live Web Audio track. */
function palVoice(): TransportParticipant {
  const voice = sharedAudioContext().createMediaStreamDestination();
  return { id: 'pal', name: 'Ada', role: 'pal', local: false, videoTrack: null, audioTrack: voice.stream.getAudioTracks()[0]! };
}

/** Media elements' play() answered by `answer` (as the browser would: allowed, or refused) until restore(). */
function answerPlay(answer: () => Promise<void>) {
  const original = HTMLMediaElement.prototype.play;
  const calls: Array<Promise<void>> = [];
  HTMLMediaElement.prototype.play = function () {
    const promise = answer();
    calls.push(promise);
    return promise;
  };
  return {
    calls,
    settled: () => Promise.allSettled(calls),
    restore: () => void (HTMLMediaElement.prototype.play = original),
  };
}

/** Resumes Web Audio within a key press (WebKit starts it only within a gesture: one a few seconds old may be too old). */
async function resumeWithinKey(context: AudioContext): Promise<void> {
  window.addEventListener('keydown', () => void context.resume(), { once: true });
  await sendKeys({ press: 'a' });
  await waitFor(() => context.state === 'running', { what: 'Web Audio running' });
}
