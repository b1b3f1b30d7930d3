import { html, LitElement } from 'lit';
import { property } from 'lit/decorators.js';
import type { ConversationLink } from '../../client/link.js';
import { LinkSubscription } from '../controllers/link-subscription.js';
import type { PalMessage } from '../../../protocol/interactions.js';
import type { IncallStringKey, IncallStrings } from '../i18n/strings-incall.js';
import { languageOf, translatorFor, withStrings, type Translate } from '../i18n/strings.js';
import { disclosureStyles } from './disclosure.styles.js';

export type DisclosureState = 'hidden' | 'delivering' | 'delivered' | 'dismissed';

/**
 * @tagname pal-disclosure
 * @summary The AI disclosure banner: shown while the PAL delivers its verbal disclosure, announced to
 * screen readers, and dismissible only once the disclosure has been delivered. Place it at the top of
 * the stage so it never covers the call controls. Its text wraps, never cut (the disclosure is read whole);
 * a text past `--pal-disclosure-max-height` scrolls inside the banner.
 *
 * Driven by `conversation.disclosure` messages on `link`, or by setting `text` and `state` directly.
 *
 * @csspart banner - The visible banner.
 * @csspart text - The disclosure text.
 * @csspart dismiss - The dismiss button (present once delivered).
 * @cssproperty [--pal-disclosure-background=stage colour at 82%] - Banner background.
 * @cssproperty [--pal-disclosure-color=#ffffff] - Banner text colour.
 * @cssproperty [--pal-disclosure-max-height=8.5em] - Height past which the text scrolls.
 */
export class PalDisclosure extends LitElement {
  static override styles = disclosureStyles;

  /** `hidden` before any disclosure, `delivering` while spoken, `delivered` (dismissible), `dismissed`. */
  @property({ reflect: true }) state: DisclosureState = 'hidden';

  /** The visual disclosure; empty uses the built-in sentence. */
  @property() text = '';

  /** Overrides of the UI strings (keys of `incallStrings`). */
  @property({ attribute: false }) strings: IncallStrings | null = null;
  /** Translator of the surrounding conversation (its language and deployment overrides); else this element's `lang`. */
  @property({ attribute: false }) t: Translate | null = null;

  private readonly subscription = new LinkSubscription(this, { onMessage: (m) => this.onPalMessage(m) });

  /** The live conversation whose `conversation.disclosure` messages drive the banner. */
  @property({ attribute: false })
  get link(): ConversationLink | null {
    return this.subscription.link;
  }
  set link(link: ConversationLink | null) {
    this.subscription.link = link;
  }

  /** Hide the banner; refused (false) until the disclosure has been delivered. */
  dismiss(): boolean {
    if (this.state !== 'delivered') return false;
    this.state = 'dismissed';
    return true;
  }

  private onPalMessage(message: PalMessage): void {
    if (message.event_type !== 'conversation.disclosure') return;
    const { visual_disclosure, state } = message.properties;
    if (state === 'delivering') {
      this.text = visual_disclosure;
      this.state = 'delivering';
    } else if (this.state !== 'dismissed') {
      // `delivered` after a dismissal of the same disclosure must not bring it back.
      if (visual_disclosure) this.text = visual_disclosure;
      this.state = 'delivered';
    }
  }

  private msg(key: IncallStringKey): string {
    return withStrings(this.t ?? translatorFor(this, languageOf(this)), this.strings)(key);
  }

  private onKeydown(event: KeyboardEvent): void {
    if (event.key === 'Escape' && this.dismiss()) {
      event.preventDefault();
      event.stopPropagation();
    }
  }

  protected override render() {
    const visible = this.state === 'delivering' || this.state === 'delivered';
    const text = this.text.trim() || this.msg('disclosure.default');
    return html`
      <div class="sr-only" role="status">${visible ? text : ''}</div>
      <section part="banner" aria-label=${this.msg('disclosure.label')} ?hidden=${!visible}
        @keydown=${this.onKeydown}>
        <span class="icon" aria-hidden="true">AI</span>
        <p part="text" aria-hidden="true">${text}</p>
        ${
          this.state === 'delivered'
            ? html`<button part="dismiss" type="button" aria-label=${this.msg('disclosure.dismiss')} @click=${() => this.dismiss()}>
              <span aria-hidden="true">×</span>
            </button>`
            : null
        }
      </section>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-disclosure': PalDisclosure;
  }
}
