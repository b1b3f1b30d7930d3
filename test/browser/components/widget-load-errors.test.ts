// A widget whose deployment cannot be talked to says so at load, on its launcher, and fires pal-error then,
// not only after a click.
import { expect, fixture, html } from '@open-wc/testing';
import type { PalWidget } from '../../../src/palkit/components/widget/widget.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, recordEvents, useFakeService } from '../helpers/deployment.js';

async function widgetWith(init: { status: number; body: unknown } | null, attrs = 'deployment-id="dnothere"') {
  if (init) useFakeService({}, { '/init': init });
  else useFakeService();
  const events = recordEvents(['pal-error']);
  const wrapper = await fixture<HTMLDivElement>(html`<div></div>`);
  wrapper.innerHTML = `<pal-widget ${attrs}></pal-widget>`;
  return { el: wrapper.querySelector('pal-widget') as PalWidget, events };
}

describe('pal-widget load errors', () => {
  for (const [what, reply, code] of [
    ['an unknown deployment-id', { status: 404, body: { error: 'deployment_not_found' } }, 'deployment_not_found'],
    ['a refused origin', { status: 403, body: { error: 'origin_not_allowed' } }, 'origin_not_allowed'],
  ] as const) {
    it(`${what}: pal-error ${code} at load and a launcher marked unavailable`, async () => {
      const { el, events } = await widgetWith(reply);
      await waitFor(() => events.seen.length > 0, { what: 'pal-error at load' });
      events.stop();
      expect((events.seen[0]!.detail as { code: string }).code).to.equal(code);
      await el.updateComplete;
      const launcher = deep(el, '.launcher')!;
      expect(launcher.classList.contains('down')).to.equal(true);
      // Seen before any click, and named by what it shows (issue 25, item 7).
      expect(launcher.hasAttribute('aria-label')).to.equal(false);
      expect(launcher.textContent!.replace(/\s+/g, ' ').trim()).to.equal('Talk to us Not available right now !');
      await expect(el).to.be.accessible();
      launcher.click();
      await waitFor(() => deep(el, 'pal-error-screen') !== null, { what: 'the popup explains' });
    });
  }

  it('a malformed deployment-id: says it is malformed (no "try again in a moment") and fires pal-error invalid_deployment_id', async () => {
    const { el, events } = await widgetWith(
      { status: 400, body: { error: 'invalid_request: deployment_id: must look like a deployment id (d…)' } },
      'deployment-id="not an id"',
    );
    await waitFor(() => events.seen.length > 0, { what: 'pal-error at load' });
    events.stop();
    const detail = events.seen[0]!.detail as { code: string; message: string };
    expect(detail.code).to.equal('invalid_deployment_id');
    expect(detail.message).to.contain('"not an id" is malformed');
    await el.updateComplete;
    expect(deep(el, '.launcher')!.classList.contains('down')).to.equal(true);
    deep(el, '.launcher')!.click();
    await waitFor(() => deep(el, 'pal-error-screen') !== null, { what: 'the popup explains' });
    await (deep(el, 'pal-error-screen') as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(deep(el, 'pal-error-screen', '[role=alert]')!.textContent).to.contain('deployment id is malformed');
    expect(deep(el, 'pal-error-screen', '[part=retry]'), 'a retry cannot fix the page').to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('a missing deployment-id: pal-error no_deployment at load and the launcher marked unavailable', async () => {
    const { el, events } = await widgetWith(null, '');
    await waitFor(() => events.seen.length > 0, { what: 'pal-error at load' });
    events.stop();
    expect((events.seen[0]!.detail as { code: string }).code).to.equal('no_deployment');
    await el.updateComplete;
    expect(deep(el, '.launcher')!.classList.contains('down')).to.equal(true);
  });

  it('a working deployment keeps a plain launcher', async () => {
    const { el, events } = await widgetWith(null, 'deployment-id="d123"');
    await waitFor(() => el.session?.deployment != null, { what: 'init' });
    await el.updateComplete;
    events.stop();
    expect(events.seen).to.deep.equal([]);
    expect(deep(el, '.launcher')!.classList.contains('down')).to.equal(false);
  });
});
