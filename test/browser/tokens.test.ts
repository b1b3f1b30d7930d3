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

describe('token defaults without light-dark() (Safari 16.4–17.4)', () => {
  it('are plain colours, so surfaces stay opaque', async () => {
    const { tokenDefaults } = await import('../../src/palkit/components/styles/tokens.js');
    const defaults = tokenDefaults(false);
    expect(defaults['--pal-color-surface']).to.equal('#ffffff');
    for (const [name, value] of Object.entries(defaults)) {
      expect(value, name).to.not.contain('light-dark(');
      if (name.startsWith('--pal-color-')) expect(CSS.supports('color', value), `${name}: ${value}`).to.equal(true);
    }
    expect(tokenDefaults(true)['--pal-color-surface']).to.contain('light-dark(');
  });
});
