// The PAL's voice heard for real: a Web Audio track on the stage's <audio> plays (its currentTime advances)
// and the stage offers no "Tap to turn on sound". Real-time, as it waits on the machine's audio output; the
// gate holds the stage's logic with play()'s answer stubbed (test/browser/components/sound-held.test.ts).
import { expect, fixture, html } from '@open-wc/testing';
import { defineParts } from '../../../src/palkit/components/define-parts.js';
import { sharedAudioContext } from '../../../src/palkit/client/media.js';
import type { PalStage } from '../../../src/palkit/components/stage/stage.js';
import type { TransportParticipant } from '../../../src/palkit/client/transport/transport.js';
import { waitFor } from '../../browser/helpers/wait-for.js';

defineParts();

describe('sound held by the browser, heard', () => {
  it('plays the voice and shows nothing when Web Audio runs', async function () {
    this.timeout(20_000);
    const context = sharedAudioContext();
    await context.resume();
    const voice = context.createMediaStreamDestination();
    const tone = context.createOscillator();
    tone.connect(voice);
    tone.start();
    const pal: TransportParticipant = {
      id: 'pal',
      name: 'Ada',
      role: 'pal',
      local: false,
      videoTrack: null,
      audioTrack: voice.stream.getAudioTracks()[0]!,
    };
    try {
      const stage = await fixture<PalStage>(html`<pal-stage .participants=${[pal]}></pal-stage>`);
      const audio = () => stage.shadowRoot!.querySelector<HTMLAudioElement>('audio[data-track]');
      await waitFor(() => audio()?.srcObject instanceof MediaStream && !audio()!.paused && audio()!.currentTime > 0, {
        what: 'the voice playing',
        timeout: 15_000,
      });
      await stage.updateComplete;
      expect(stage.shadowRoot!.querySelector('button.sound')).to.equal(null);
    } finally {
      tone.stop();
    }
  });
});
