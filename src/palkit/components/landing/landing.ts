import { html, nothing } from 'lit';
import { customizationCss } from '../shared/config.js';
import { PalDeploymentElement } from '../shared/deployment-element.js';
import { renderFlow } from '../shared/flow-view.js';
import { bringIntoView } from '../shared/into-view.js';
import { buttonStyles } from '../styles/shared.js';
import { outerTokens, tokens } from '../styles/tokens.js';
import { landingStyles } from './landing.styles.js';

const TEMPLATES = new Set(['split', 'stacked', 'centered', 'spotlight', 'minimal']);
const safeUrl = (url: string | undefined): string | undefined => (url && /^https?:\/\//i.test(url) ? url : undefined);

/**
 * @tagname pal-landing
 * @summary A full conversation page: hero (template, logo, title, description, call-to-action links from
 * `customization.landing_page`) beside or above the conversation. The service serves it at `/d/{deployment_id}`.
 * @csspart hero - The hero block.
 * @csspart logo - The logo.
 * @csspart cta - A call-to-action link.
 * @csspart base - The conversation area.
 * @csspart screen - The current screen.
 * @csspart conversation - The live conversation.
 * @fires {PalReadyEvent} pal-ready - The deployment configuration has loaded.
 * @fires {PalConversationCreatedEvent} pal-conversation-created - `createConversation()` created a conversation.
 * @fires {PalConversationStartedEvent} pal-conversation-started - The visitor joined.
 * @fires {PalConversationEndedEvent} pal-conversation-ended - A live conversation ended.
 * @fires {PalStateChangeEvent} pal-state-change - `state` changed.
 * @fires {PalModeChangeEvent} pal-mode-change - `mode` changed.
 * @fires {PalErrorEvent} pal-error - Something failed (`{code, message}`).
 * @fires {PalToolCallEvent} pal-tool-call - The PAL called a tool.
 * @fires {PalProtocolMessageEvent} pal-protocol-message - An interactions-protocol message arrived.
 * @fires {PalCanvasInteractionEvent} pal-canvas-interaction - A Magic Canvas interaction was recorded.
 * @fires {PalTurnLatencyEvent} pal-turn-latency - What the visitor heard of a PAL reply, measured in the page (`{heardMs?, mouthMs?, lipSyncMs?, turnEndedAt, input, inference_id}`).
 */
export class PalLanding extends PalDeploymentElement {
  static override styles = [tokens, outerTokens, buttonStyles, landingStyles];

  /** Which of the five hero layouts is used (from `customization.landing_page.template`). */
  get template(): string {
    const template = this.config.landing_page?.template ?? 'split';
    return TEMPLATES.has(template) ? template : 'split';
  }

  override render() {
    const page = this.config.landing_page ?? {};
    const logo = safeUrl(page.logo_url);
    return html`
      ${this.customizationStyles.render(customizationCss(this.config))}
      <div class=${this.template}>
        <main class="page">
          <header class="hero" part="hero">
            ${logo ? html`<img class="logo" part="logo" src=${logo} alt="" />` : nothing}
            <h1>${page.title || this.config.preview?.title || this.t('preview.title')}</h1>
            ${page.description ? html`<p>${page.description}</p>` : nothing}
            ${
              page.cta_links?.length
                ? html`<nav class="cta" aria-label="Links">${page.cta_links.map((link, i) => {
                    const href = safeUrl(link.url);
                    return href
                      ? html`<a class="button ${i === 0 ? 'primary' : ''}" part="cta" href=${href} target="_blank" rel="noopener">${link.label}</a>`
                      : nothing;
                  })}</nav>`
                : nothing
            }
          </header>
          <section class="stage" part="base" aria-label=${this.t('popup.label')}>${renderFlow(this)}</section>
        </main>
      </div>
    `;
  }

  /** The mode last rendered: the device check or the call coming on screen scrolls the page to it (below the hero on a phone). */
  #shownMode = 'idle';

  override updated(changed: Map<string, unknown>): void {
    super.updated(changed);
    const mode = this.mode;
    if (mode === this.#shownMode) return;
    const starting = (mode === 'haircheck' || mode === 'call') && this.#shownMode !== 'haircheck' && this.#shownMode !== 'call';
    this.#shownMode = mode;
    const stage = this.renderRoot.querySelector('section.stage');
    if (starting && stage) bringIntoView(stage);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-landing': PalLanding;
  }
}
