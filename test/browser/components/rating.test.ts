// The after-call rating: stars by keyboard, an optional comment, sent with the visitor's meeting token.
import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { PalEmbed } from '../../../src/palkit/components/embed/embed.js';
import { waitFor } from '../helpers/wait-for.js';
import { deep, useFakeService } from '../helpers/deployment.js';

async function endedEmbed(ratingReply: { status: number; body: unknown }) {
  const service = useFakeService({ customization: { show_haircheck: false } }, { '/rating': ratingReply });
  const wrapper = await fixture<HTMLDivElement>(html`<div style="width:1000px"></div>`);
  wrapper.innerHTML = `<pal-embed deployment-id="d123"></pal-embed>`;
  const el = wrapper.querySelector('pal-embed') as PalEmbed;
  await waitFor(() => el.session?.state === 'idle' && el.session.deployment !== null, { what: 'init' });
  await el.startConversation();
  await waitFor(() => el.state === 'connected', { what: 'connected' });
  await el.endConversation();
  await waitFor(() => deep(el, 'pal-ended', 'form.rating') !== null, { what: 'rating form' });
  return { el, service };
}

describe('after-call rating', () => {
  it('rates by keyboard with a comment, sends it with the meeting token, then thanks the visitor', async () => {
    const { el, service } = await endedEmbed({ status: 200, body: { stars: 4, comment: 'Helpful', rated_at: '2026-11-22T10:00:00Z' } });
    const ended = deep(el, 'pal-ended')!;
    await expect(ended).to.be.accessible();
    const send = deep<HTMLButtonElement>(el, 'pal-ended', 'form.rating button[type=submit]')!;
    expect(send.disabled, 'nothing to send before a star is chosen').to.equal(true);
    deep<HTMLInputElement>(el, 'pal-ended', 'input[value="1"]')!.focus();
    await sendKeys({ press: 'ArrowRight' });
    await sendKeys({ press: 'ArrowRight' });
    await sendKeys({ press: 'ArrowRight' });
    await waitFor(() => !send.disabled, { what: 'a star chosen' });
    expect(ended.shadowRoot!.querySelectorAll('.stars label.on').length).to.equal(4);
    expect(deep(el, 'pal-ended', 'input[value="4"]')!.nextElementSibling!.textContent).to.equal('4 of 5 stars');
    deep<HTMLTextAreaElement>(el, 'pal-ended', 'textarea')!.value = '  Helpful  ';
    send.click();
    await waitFor(() => deep(el, 'pal-ended', '.rating-thanks') !== null, { what: 'thanks' });
    const call = service.calls.find((c) => c.url.endsWith('/v2/conversations/c42/rating'))!;
    expect(call.method).to.equal('POST');
    expect(call.body).to.deep.equal({ stars: 4, comment: 'Helpful' });
    expect(call.authorization).to.equal('Bearer tok');
    expect(deep(el, 'pal-ended', '.rating-thanks')!.textContent).to.contain('Thank you for your feedback.');
  });

  it('keeps the form and says so when the rating cannot be sent', async () => {
    const { el } = await endedEmbed({ status: 409, body: { error: 'already_rated: this conversation has been rated' } });
    deep<HTMLInputElement>(el, 'pal-ended', 'input[value="5"]')!.click();
    await waitFor(() => !deep<HTMLButtonElement>(el, 'pal-ended', 'form.rating button[type=submit]')!.disabled, { what: 'chosen' });
    deep<HTMLButtonElement>(el, 'pal-ended', 'form.rating button[type=submit]')!.click();
    await waitFor(() => deep(el, 'pal-ended', 'form.rating [role=alert]') !== null, { what: 'failure shown' });
    expect(deep(el, 'pal-ended', 'form.rating')).to.not.equal(null);
  });
});
