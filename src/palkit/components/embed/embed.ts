import { html, nothing } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { customizationCss } from '../shared/config.js';
import type { PalEndAnswerEvent } from '../events/end-answer.js';
import { PalDeploymentElement } from '../shared/deployment-element.js';
import { renderFlow } from '../shared/flow-view.js';
import { outerTokens, tokens } from '../styles/tokens.js';
import { embedStyles } from './embed.styles.js';
import { expandStyle, parseExpandOptions } from './expand-options.js';
import { styleProps } from '../shared/style-props.js';
import { bringIntoView } from '../shared/into-view.js';

/**
 * @tagname pal-embed
 * @summary The conversation inline in the page. Fills its parent: 16:9 in containers at least 900px
 * wide, 9:16 portrait below (container query); with `expand-options` it expands into a modal for the call.
 * @csspart base - The card.
 * @csspart screen - The current screen.
 * @csspart conversation - The live conversation.
 * @csspart stage - The video stage.
 * @csspart controls - The call controls.
 * @csspart captions - The live captions.
 * @csspart transcript - The chat panel.
 * @csspart banner - The AI disclosure banner.
 * @csspart card - The Magic Canvas card.
 * @csspart recording - The "recorded" badge.
 * @csspart ai-mark - The small "AI" mark on the PAL's video (hidden only by `customization.ai_mark: false`).
 * @csspart mode-switch - The chat's voice/text switch.
 * @csspart notice - What the visitor should know while the call goes on ("can't hear you", "reconnecting").
 * @cssproperty [--pal-radius=12px] - Corner radius of the card.
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
export class PalEmbed extends PalDeploymentElement {
  static override styles = [tokens, outerTokens, embedStyles];

  /** Preview layout: `full-screen` puts the greeting top-left and the start button centred near the bottom. */
  @property({ reflect: true }) layout: string | null = null;
  /** JSON `{enabled, aspect, custom_aspect, fullscreen, max_width, max_height}`: expand into a modal for the call. */
  @property({ attribute: 'expand-options' }) expandOptions = '';
  @query('dialog') private card!: HTMLDialogElement | null;
  /** "End the call?" is on screen (Escape on the expanded card). */
  @state() private confirmingEnd = false;

  /** Whether the card is expanded into the modal right now. */
  get expanded(): boolean {
    return this.card?.matches(':modal') ?? false;
  }

  override render() {
    const expand = parseExpandOptions(this.expandOptions);
    const classes = `card ${expand.fullscreen ? 'fullscreen' : ''} ${!expand.customAspect && expand.aspect === 'vertical' ? 'vertical' : ''}`;
    const label = this.config.preview?.title || this.t('popup.label');
    const content = html`
      ${renderFlow(this, { layout: this.layout })}
      ${this.confirmingEnd && this.state === 'connected' ? html`<pal-end-confirm .t=${this.t} @pal-end-answer=${this.#onEndAnswer}></pal-end-confirm>` : nothing}`;
    // Inline, the card is a labelled region; only a card that can expand is a dialog (shown inline, then modal).
    return html`
      ${this.customizationStyles.render(customizationCss(this.config))}
      ${
        expand.enabled
          ? html`<dialog class=${classes} part="base" aria-label=${label} style=${styleProps(expandStyle(expand))} open @cancel=${this.#onCancel}>${content}</dialog>`
          : html`<div class=${classes} part="base" role="region" aria-label=${label} style=${styleProps(expandStyle(expand))}>${content}</div>`
      }
    `;
  }

  /** The mode last rendered: the device check or the call coming on screen brings the card into view. */
  #shownMode = 'idle';

  override updated(changed: Map<string, unknown>): void {
    super.updated(changed);
    const mode = this.mode;
    if (mode !== this.#shownMode) {
      const starting = (mode === 'haircheck' || mode === 'call') && this.#shownMode !== 'haircheck' && this.#shownMode !== 'call';
      this.#shownMode = mode;
      if (starting && !this.expanded) bringIntoView(this);
    }
    const card = this.card;
    if (!card) return;
    const expand = parseExpandOptions(this.expandOptions);
    const wantModal = expand.enabled && (this.mode === 'haircheck' || this.mode === 'call');
    // The same dialog is shown inline (open attribute, no focus move) or on the top layer, so the call's
    // DOM never moves and its media keep playing.
    if (wantModal && !card.matches(':modal')) {
      if (card.open) card.close();
      card.showModal();
    } else if (!wantModal && card.matches(':modal')) {
      card.close();
      card.setAttribute('open', '');
    }
  }

  /** Escape on the expanded card (nothing inside it open) asks before ending the call. */
  #onCancel(event: Event): void {
    event.preventDefault();
    if (!this.expanded) return;
    if (this.state !== 'connected') {
      void this.endConversation();
      return;
    }
    // The question comes with the call's parts, fetched while the visitor was on the preview.
    void this.callParts().then(
      () => (this.confirmingEnd = true),
      () => undefined,
    );
  }

  #onEndAnswer(event: PalEndAnswerEvent): void {
    if (event.detail.end) void this.#endFromConfirm();
    else this.confirmingEnd = false;
  }

  async #endFromConfirm(): Promise<void> {
    this.confirmingEnd = false;
    await this.endConversation();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-embed': PalEmbed;
  }
}
