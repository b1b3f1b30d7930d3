import { expect, fixture, html } from '@open-wc/testing';
import { defineShells, type FullModule } from '../../../src/palkit/cdn/shell.js';
import { PalDeploymentElement } from '../../../src/palkit/components/shared/deployment-element.js';
import { initBody } from '../../../stories/support/endpoints.js';
import { StandInTransport } from '../../../stories/support/transport.js';
import { waitFor } from '../helpers/wait-for.js';

// The script-tag shells are defined under pal-* names in a page without the npm registration, so this
// file registers them under the real names before anything else does.
let loads = 0;
let initFetches = 0;
const realFetch = window.fetch.bind(window);
describe('script-tag shells', () => {
  before(async function () {
    // The dev server sends the full code and the call's parts module by module; on a loaded machine that
    // took 4.5 s, the whole of a test's budget. Fetched here, the tests time what the shell does.
    this.timeout(30_000);
    await Promise.all([import('../../../src/palkit/cdn-full.js'), import('../../../src/palkit/components/define-call.js')]);
    window.fetch = async (input, init) =>
      String(input).endsWith('/init') && ++initFetches
        ? new Response(
            JSON.stringify(
              initBody({
                customization: { widget: { text: 'Ask Ada', corner: 'top-left' }, preview: { title: 'Hi there' }, show_haircheck: false },
              }),
            ),
          )
        : String(input).endsWith('/start')
          ? new Response(
              JSON.stringify({
                conversation_id: 'c1',
                conversation_name: 'n',
                conversation_url: 'http://pal.test/rooms/c1',
                status: 'active',
                created_at: 'now',
                meeting_token: 't',
              }),
            )
          : realFetch(input, init);
    PalDeploymentElement.transportFactory = () => new StandInTransport();
    defineShells(async () => {
      loads++;
      return (await import('../../../src/palkit/cdn-full.js')) as FullModule;
    }, 'http://cdn.test');
  });
  after(() => {
    window.fetch = realFetch;
  });

  it('defines the elements at once and paints the launcher before the full code arrives', async () => {
    initFetches = 0;
    expect(customElements.get('pal-widget')).to.not.equal(undefined);
    const el = await fixture<HTMLElement>(html`<pal-widget deployment-id="d1" api-base="http://pal.test"></pal-widget>`);
    await waitFor(() => el.shadowRoot!.querySelector('.l, pal-widget-impl') !== null, { what: 'launcher painted' });
    const upgraded = await (el as unknown as { whenUpgraded(): Promise<HTMLElement> }).whenUpgraded();
    expect(upgraded.tagName).to.equal('PAL-WIDGET-IMPL');
    expect(upgraded.getAttribute('api-base')).to.equal('http://pal.test');
    expect(upgraded.getAttribute('exportparts')).to.contain('launcher');
    await waitFor(() => upgraded.shadowRoot?.querySelector('.launcher')?.textContent?.includes('Ask Ada') === true, {
      what: 'full launcher',
    });
    expect(initFetches, 'the full element reuses the init the shell fetched').to.equal(1);
    await expect(el).to.be.accessible();
  });

  // Issue 54: the widget's full code (91 KB) was fetched on every page at its first idle moment, by visitors
  // who never touched the launcher. It comes when the visitor reaches for the launcher.
  it('fetches the full widget when the visitor points at, touches or focuses the launcher, not on load', async () => {
    const page = await fixture<HTMLDivElement>(html`<div>
      <pal-widget deployment-id="d1" api-base="http://pal.test"></pal-widget><pal-widget deployment-id="d1" api-base="http://pal.test"></pal-widget>
    </div>`);
    const [pointed, focused] = [...page.querySelectorAll('pal-widget')];
    const placeholder = (el: Element) => el.shadowRoot!.querySelector<HTMLButtonElement>('button.l');
    await waitFor(() => placeholder(pointed!) !== null && placeholder(focused!) !== null, { what: 'launchers painted' });
    expect(placeholder(pointed!)!.getAttribute('part'), 'the page styles it as the launcher').to.equal('launcher');
    // Where the shell used to upgrade: the page's first idle moment (WebKit has no requestIdleCallback: frames).
    // Bounded: a page sharing the browser with another file's may wait seconds for an idle moment.
    const idle = (done: () => void) =>
      'requestIdleCallback' in window ? requestIdleCallback(done, { timeout: 100 }) : requestAnimationFrame(done);
    for (let i = 0; i < 10; i++) await new Promise<void>((done) => idle(() => done()));
    expect(pointed!.shadowRoot!.querySelector('pal-widget-impl'), 'idle moments pass: still the light launcher').to.equal(null);

    placeholder(pointed!)!.dispatchEvent(new PointerEvent('pointerover', { bubbles: true, composed: true }));
    await waitFor(() => pointed!.shadowRoot!.querySelector('pal-widget-impl') !== null, { what: 'the full widget on pointing' });
    expect(focused!.shadowRoot!.querySelector('pal-widget-impl'), 'only the one pointed at').to.equal(null);

    placeholder(focused!)!.focus();
    const impl = await waitFor(() => focused!.shadowRoot!.querySelector('pal-widget-impl'), { what: 'the full widget on focus' });
    await waitFor(() => impl.shadowRoot?.activeElement?.getAttribute('part') === 'launcher', { what: 'the focus on the full launcher' });
  });

  it('forwards methods, attributes and events; loads the full code once', async () => {
    const el = await fixture<HTMLElement & { startConversation(): Promise<void>; state: string }>(
      html`<pal-embed deployment-id="d1" api-base="http://pal.test"></pal-embed>`,
    );
    const started = new Promise((resolve) => el.addEventListener('pal-conversation-started', resolve));
    await el.startConversation();
    await started;
    expect(el.state).to.equal('connected');
    el.setAttribute('custom-greeting', 'Hello');
    expect(el.shadowRoot!.querySelector('pal-embed-impl')!.getAttribute('custom-greeting')).to.equal('Hello');
    expect(loads).to.equal(1);
  });

  it('exports every part and forwards every attribute the full element declares (its lists come from the manifest)', async () => {
    const el = await fixture<HTMLElement & { whenUpgraded(): Promise<HTMLElement> }>(
      html`<pal-embed deployment-id="d1" api-base="http://pal.test" theme="dark"></pal-embed>`,
    );
    const upgraded = await el.whenUpgraded();
    expect(upgraded.getAttribute('exportparts')!.split(/,\s*/)).to.include.members([
      'base',
      'screen',
      'card',
      'notice',
      'mode-switch',
      'captions',
      'banner',
      'recording',
    ]);
    expect(upgraded.getAttribute('theme')).to.equal('dark');
    el.setAttribute('theme', 'light');
    expect(upgraded.getAttribute('theme')).to.equal('light');
  });

  it('keeps open() a method when a framework assigns the open attribute as a property', async () => {
    const el = await fixture<HTMLElement & { open: unknown; whenUpgraded(): Promise<HTMLElement & { opened: boolean }> }>(
      html`<pal-widget deployment-id="d1" api-base="http://pal.test"></pal-widget>`,
    );
    el.open = ''; // what Vue does for <pal-widget open>
    expect(typeof el.open).to.equal('function');
    expect(el.hasAttribute('open')).to.equal(true);
    const upgraded = await el.whenUpgraded();
    await waitFor(() => upgraded.opened, { what: 'the popup opens' });
    el.open = false;
    await waitFor(() => !upgraded.opened, { what: 'and closes' });
  });
});
