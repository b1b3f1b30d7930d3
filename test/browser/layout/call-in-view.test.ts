// Issue 54: on the demo's "Your face" and own-surface pages at 390 and 320 px the call opened below the fold,
// and at 1366 × 860 its controls were cut at the window's bottom edge. The call starts in view: an embed whose
// device check or call begins partly off screen scrolls the page so that it is whole on screen.
import { expect, fixture, html } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import type { PalLanding } from '../../../src/palkit/components/landing/landing.js';
import { waitFor } from '../helpers/wait-for.js';
import { useFakeService } from '../helpers/deployment.js';

const whole = (el: Element) => {
  const box = el.getBoundingClientRect();
  return box.top >= -0.5 && box.bottom <= innerHeight + 0.5 && box.height > 0;
};

for (const [width, height, frame] of [
  [390, 844, [358, 636]],
  [320, 640, [288, 512]],
  [1366, 860, [960, 540]],
] as const) {
  describe(`the call starts in view at ${width} × ${height}`, () => {
    before(() => setViewport({ width, height }));
    after(async () => {
      scrollTo(0, 0);
      await setViewport({ width: 800, height: 600 });
    });

    for (const haircheck of [true, false])
      it(`scrolls an embed cut by the window's bottom edge into view as its ${haircheck ? 'device check' : 'call'} starts`, async () => {
        useFakeService({ channel: 'embed', customization: { show_haircheck: haircheck } });
        // The page's text above pushes the embed's lower part below the fold, as the demo's pages did.
        const page = await fixture<HTMLDivElement>(html`<div>
          <div style="height:${height - 200}px"></div>
          <div style="width:${frame[0]}px;height:${frame[1]}px"><pal-embed deployment-id="d123"></pal-embed></div>
          <div style="height:${height}px"></div>
        </div>`);
        scrollTo(0, 0);
        const el = page.querySelector<PalEmbed>('pal-embed')!;
        await waitFor(() => el.session?.deployment != null && el.session.state === 'idle', { what: 'init' });
        expect(whole(el), 'cut at first').to.equal(false);
        void el.startConversation();
        await waitFor(() => el.mode === (haircheck ? 'haircheck' : 'call'), { what: 'started' });
        await waitFor(() => whole(el), { what: `the embed whole on screen (${JSON.stringify(el.getBoundingClientRect())})` });
      });
  });
}

describe('the landing page brings its device check into view at 320 × 640', () => {
  before(() => setViewport({ width: 320, height: 640 }));
  after(async () => {
    scrollTo(0, 0);
    await setViewport({ width: 800, height: 600 });
  });

  it('scrolls to the device check below the hero, its Join button on screen (QA: it was at y 755 of 640)', async () => {
    useFakeService({ channel: 'landing-page', customization: { show_haircheck: true } });
    // The hero and the page's own text above push the stage below the fold on a phone.
    const page = await fixture<HTMLDivElement>(
      html`<div><div style="height:500px"></div><pal-landing deployment-id="d123"></pal-landing></div>`,
    );
    scrollTo(0, 0);
    const el = page.querySelector<PalLanding>('pal-landing')!;
    await waitFor(() => el.session?.deployment != null && el.session.state === 'idle', { what: 'init' });
    const stage = el.shadowRoot!.querySelector('section.stage')!;
    expect(stage.getBoundingClientRect().bottom > innerHeight, 'below the fold at first').to.equal(true);
    void el.startConversation();
    await waitFor(() => el.mode === 'haircheck', { what: 'the device check' });
    await waitFor(() => stage.getBoundingClientRect().top >= -0.5 && stage.getBoundingClientRect().top < innerHeight / 2, {
      what: `the stage scrolled to (${JSON.stringify(stage.getBoundingClientRect())})`,
    });
  });
});
