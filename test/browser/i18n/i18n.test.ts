// Language choice (lang attribute, ancestors, the page), built-in tables, per-deployment overrides, and
// the in-call parts going through the same lookup as the channel screens.
import { expect, fixture, html } from '@open-wc/testing';
import '../../../src/palkit/components/define.js';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import type { PalDisclosure } from '../../../src/palkit/components/disclosure/disclosure.js';
import type { PalTranscript } from '../../../src/palkit/components/transcript/transcript.js';
import { en, languageOf, languageReady, languages, loadLanguage, translator } from '../../../src/palkit/components/i18n/strings.js';
import { de } from '../../../src/palkit/components/i18n/locales/de.js';
import { es } from '../../../src/palkit/components/i18n/locales/es.js';
import { fr } from '../../../src/palkit/components/i18n/locales/fr.js';
import { ja } from '../../../src/palkit/components/i18n/locales/ja.js';
import { FakeLink } from '../protocol/fake-link.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, openChat, useFakeService } from '../helpers/deployment.js';

async function mountEmbed(attrs: string, wrapperLang = '') {
  const wrapper = await fixture<HTMLDivElement>(html`<div style="width:1000px"></div>`);
  if (wrapperLang) wrapper.setAttribute('lang', wrapperLang);
  wrapper.innerHTML = `<pal-embed deployment-id="d123" ${attrs}></pal-embed>`;
  const el = wrapper.querySelector('pal-embed') as PalEmbed;
  await waitFor(() => el.session?.state === 'idle' && el.session.deployment !== null, { what: 'init' });
  await el.updateComplete;
  const preview = deep(el, 'pal-preview') as HTMLElement & { updateComplete: Promise<void> };
  await preview.updateComplete;
  return { el, preview };
}

describe('translations load on demand', () => {
  it('an English page loads no table; a German element loads German and re-renders', async () => {
    expect(languageReady('en')).to.equal(true);
    expect(languageReady('xx')).to.equal(true);
    expect(languageReady('de-CH')).to.equal(false);
    useFakeService();
    const { preview } = await mountEmbed('lang="de-CH"');
    await waitFor(() => deep(preview, 'button')!.textContent!.trim() === de['preview.start'], { what: 'German start button' });
    expect(languageReady('de')).to.equal(true);
  });
});

describe('localised UI strings', () => {
  before(() => Promise.all(languages.map(loadLanguage)));
  afterEach(() => document.documentElement.setAttribute('lang', 'en'));

  it('has complete, non-empty tables for de, es, fr and ja covering channel and in-call keys', () => {
    expect(languages).to.include.members(['en', 'de', 'es', 'fr', 'ja']);
    const keys = Object.keys(en).sort();
    expect(keys).to.include('preview.start').and.include('canvas.submit').and.include('disclosure.default');
    for (const table of [de, es, fr, ja]) {
      expect(Object.keys(table).sort()).to.deep.equal(keys);
      for (const value of Object.values(table)) expect(value).to.be.a('string').and.not.equal('');
    }
    expect(de['preview.start']).to.not.equal(en['preview.start']);
  });

  it('translator: region falls back to the language, unknown languages and missing keys to English', () => {
    expect(translator('de-AT')('preview.start')).to.equal(de['preview.start']);
    expect(translator('JA')('canvas.submit')).to.equal(ja['canvas.submit']);
    expect(translator('xx')('preview.start')).to.equal(en['preview.start']);
    expect(translator(undefined)('retry')).to.equal(en.retry);
  });

  it('translator: customization.strings override per language, region first, then built-in tables', () => {
    const t = translator('fr-CA', { fr: { 'preview.start': 'On y va' }, 'fr-ca': { retry: 'Encore' }, de: { retry: 'Nochmal' } });
    expect(t('preview.start')).to.equal('On y va');
    expect(t('retry')).to.equal('Encore');
    expect(t('ended.title')).to.equal(fr['ended.title']);
    expect(translator('es', { es: { retry: '' } })('retry')).to.equal(es.retry);
  });

  it('languageOf: own lang, then ancestors across shadow roots, then the page', async () => {
    document.documentElement.setAttribute('lang', 'fr');
    const outer = await fixture<HTMLDivElement>(html`<div lang="ja"><span></span></div>`);
    expect(languageOf(outer.querySelector('span')!)).to.equal('ja');
    const host = await fixture<HTMLDivElement>(html`<div></div>`);
    host.setAttribute('lang', 'es');
    const inner = host.attachShadow({ mode: 'open' }).appendChild(document.createElement('b'));
    expect(languageOf(inner)).to.equal('es');
    const loose = await fixture<HTMLElement>(html`<i></i>`);
    expect(languageOf(loose)).to.equal('fr');
  });

  it('the lang attribute picks the language of the channel screens', async () => {
    useFakeService();
    const { preview } = await mountEmbed('lang="de"');
    expect(deep(preview, 'button')!.textContent!.trim()).to.equal(de['preview.start']);
  });

  it('changing lang re-renders the current screen in the new language', async () => {
    useFakeService();
    const { el, preview } = await mountEmbed('lang="en"');
    el.setAttribute('lang', 'ja');
    await el.updateComplete;
    await preview.updateComplete;
    expect(deep(preview, 'button')!.textContent!.trim()).to.equal(ja['preview.start']);
    el.lang = 'de';
    await el.updateComplete;
    await preview.updateComplete;
    expect(deep(preview, 'button')!.textContent!.trim()).to.equal(de['preview.start']);
  });

  it('without lang, the page language (or an ancestor lang) is used', async () => {
    useFakeService();
    document.documentElement.setAttribute('lang', 'es');
    const page = await mountEmbed('');
    expect(deep(page.preview, 'button')!.textContent!.trim()).to.equal(es['preview.start']);
    const nested = await mountEmbed('', 'ja');
    expect(deep(nested.preview, 'button')!.textContent!.trim()).to.equal(ja['preview.start']);
  });

  it('customization.strings[lang][key] overrides a key for the deployment', async () => {
    useFakeService({ customization: { strings: { de: { 'preview.start': 'Los geht’s' } } } });
    const { preview } = await mountEmbed('lang="de"');
    expect(deep(preview, 'button')!.textContent!.trim()).to.equal('Los geht’s');
    expect(deep(preview, 'h2')?.textContent ?? preview.shadowRoot!.textContent).to.contain(de['preview.title']);
  });

  it('in-call strings follow the deployment translator through the conversation (with overrides)', async () => {
    useFakeService({ customization: { show_haircheck: false, strings: { fr: { 'transcript.send': 'Expédier' } } } });
    const { el, preview } = await mountEmbed('lang="fr"');
    deep(preview, 'button')!.click();
    await waitFor(() => el.state === 'connected', { what: 'connected' });
    await el.updateComplete;
    const conversation = deep(el, 'pal-conversation') as HTMLElement & { updateComplete: Promise<void> };
    await conversation.updateComplete;
    // The chat panel renders while it is open.
    openChat(conversation);
    const panel = deep(conversation, 'pal-transcript.panel') as PalTranscript;
    await waitFor(() => !panel.hidden, { what: 'the chat open' });
    await panel.updateComplete;
    expect(deep(panel, 'form button[type=submit]')!.textContent!.trim()).to.equal('Expédier');
    expect(deep(panel, '.empty')!.textContent!.trim()).to.equal(fr['transcript.empty']);
    const disclosure = deep(conversation, 'pal-disclosure') as PalDisclosure;
    expect(deep(disclosure, 'section')!.getAttribute('aria-label')).to.equal(fr['disclosure.label']);
    await el.endConversation();
  });

  it('a standalone part uses its lang attribute; its strings property still overrides single keys', async () => {
    const link = new FakeLink();
    const el = await fixture<PalDisclosure>(html`<pal-disclosure lang="ja" .link=${link}></pal-disclosure>`);
    link.event('conversation.disclosure', { visual_disclosure: '', verbal_disclosure: '', state: 'delivered' });
    await el.updateComplete;
    expect(deep(el, '[part=text]')!.textContent).to.equal(ja['disclosure.default']);
    expect(deep(el, '[part=dismiss]')!.getAttribute('aria-label')).to.equal(ja['disclosure.dismiss']);
    el.strings = { 'disclosure.dismiss': 'OK' };
    await el.updateComplete;
    expect(deep(el, '[part=dismiss]')!.getAttribute('aria-label')).to.equal('OK');
  });
});
