// Issue 25: WebKitGTK's page froze for good when the device check closed on joining a call, as it stopped
// its camera track while the preview <video> still showed it (a GStreamer deadlock between the video sink
// and the main thread). The preview lets go of the stream before any track stops.
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/palkit/components/define.js';
import type { PalHaircheck } from '../../../src/palkit/components/haircheck/haircheck.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep } from '../helpers/deployment.js';

describe('pal-haircheck releasing the devices', () => {
  it('detaches the preview before it stops a track, on leaving the page', async () => {
    const el = await fixture<PalHaircheck>(html`<pal-haircheck></pal-haircheck>`);
    await waitFor(() => el.stream !== null, { what: 'camera stream' });
    await el.updateComplete;
    const preview = deep<HTMLVideoElement>(el, 'video[part=preview]')!;
    expect(preview.srcObject).to.equal(el.stream);
    const shownAtStop: Array<[string, boolean]> = [];
    for (const track of el.stream!.getTracks()) {
      const stop = track.stop.bind(track);
      track.stop = () => {
        shownAtStop.push([track.kind, preview.srcObject !== null]);
        stop();
      };
    }
    el.remove();
    expect(shownAtStop.map(([kind]) => kind).sort()).to.deep.equal(['audio', 'video']);
    expect(shownAtStop.filter(([, shown]) => shown)).to.deep.equal([]);
  });
});
