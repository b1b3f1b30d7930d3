import { expect, fixture, html } from '@open-wc/testing';
import { LitElement } from 'lit';
import { customElement } from 'lit/decorators.js';
import { tokens } from '../../src/palkit/components/styles/tokens.js';

@customElement('token-probe')
class TokenProbe extends LitElement {
  static override styles = tokens;
}

describe('design tokens', () => {
  it('exposes --pal-* tokens on the host and lets the page override the accent', async () => {
    const el = await fixture<TokenProbe>(html`<token-probe style="--pal-accent: rgb(1, 2, 3)"></token-probe>`);
    expect(getComputedStyle(el).getPropertyValue('--pal-color-accent').trim()).to.equal('rgb(1, 2, 3)');
  });
});
