import { html, nothing, svg } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { FocusTrapController } from '../controllers/focus-trap.js';
import { customizationCss } from '../shared/config.js';
import type { PalEndAnswerEvent } from '../events/end-answer.js';
import { PalDeploymentElement } from '../shared/deployment-element.js';
import { renderFlow } from '../shared/flow-view.js';
import { isOpenFlag } from '../shared/open-flag.js';
import { buttonStyles } from '../styles/shared.js';
import { outerTokens, tokens } from '../styles/tokens.js';
import { cornerStack } from './corner-stack.js';
import { widgetStyles } from './widget.styles.js';

const bubble = svg`<svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true" fill="currentColor"><path d="M4 4h16a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2zm4 6.5a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zm4 0a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3zm4 0a1.5 1.5 0 1 0 0-3 1.5 1.5 0 0 0 0 3z"/></svg>`;

/**
 * @tagname pal-widget
 * @summary A floating launcher that opens the conversation in a popup (a full-screen sheet on phones).
 * Variant (tiny/compact/full), corner and launcher text come from `customization.widget`.
 * @csspart launcher - The launcher button.
 * @csspart panel - The popup (a modal dialog: focus stays inside; Escape closes the innermost menu or panel,
 * then the popup, which during a call only minimises it; × during a call asks before ending).
 * @csspart header - The popup's title bar.
 * @csspart screen - The current screen (preview, gate, device check, …).
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
 * @cssproperty [--pal-launcher-size=56px] - Height of the launcher.
 * @cssproperty [--pal-widget-width=400px] - Width of the popup on wide screens.
 * @cssproperty [--pal-widget-height=640px] - Height of the popup on wide screens.
 * @cssproperty [--pal-accent] - Accent colour (launcher, buttons).
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
export class PalWidget extends PalDeploymentElement {
  static override styles = [tokens, outerTokens, buttonStyles, widgetStyles];

  /** Whether the popup is open (reflected as the `open` attribute; set it to open at load). */
  @property({ type: Boolean, reflect: true, attribute: 'open' }) opened = false;
  /** @internal The corner from `customization.widget`, reflected for the styles. */
  @property({ reflect: true }) corner: string | null = null;
  @query('dialog') private dialog!: HTMLDialogElement | null;
  @query('.launcher') private launcher!: HTMLButtonElement | null;
  @query('.close') private closeButton!: HTMLButtonElement | null;
  /** "End the call?" is on screen. */
  @state() private confirmingEnd = false;
  /** The popup is modal: Tab cycles inside it, including into nested parts. */
  protected readonly focusTrap = new FocusTrapController(this, () => (this.opened ? this.dialog : null));
  /** The flow is rendered from the first open on, so a call survives closing the popup. */
  #everOpened = false;

  /**
   * `open()` shows the popup (the preview, or the running call). Frameworks that hand the `open`
   * attribute over as a property (Vue does for `<pal-widget open>`) set whether the popup is open
   * instead of replacing the method.
   */
  get open(): () => Promise<void> {
    return this.#show;
  }
  set open(value: unknown) {
    this.opened = isOpenFlag(value);
  }

  readonly #show = async (): Promise<void> => {
    this.opened = true;
    await this.updateComplete;
  };

  /** Hides the popup. A live call keeps running behind the launcher; call endConversation() to end it. */
  async close(): Promise<void> {
    this.opened = false;
    await this.updateComplete;
    this.launcher?.focus();
  }

  /** Opens the popup and starts (same path as the Start button). */
  override startConversation(options: { text?: boolean } = {}): Promise<void> {
    void this.open();
    return super.startConversation(options);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    cornerStack.join(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    cornerStack.leave(this);
  }

  override willUpdate(changed: Map<string, unknown>): void {
    super.willUpdate(changed);
    // A call that began without the popup (rejoined after a reload) is shown: its sound and face are in it.
    if (!this.#everOpened && this.session?.mode === 'call') this.opened = true;
    if (this.opened) this.#everOpened = true;
    this.corner = this.config.widget?.corner ?? 'bottom-right';
  }

  override render() {
    const config = this.config;
    const t = this.t;
    const variant = config.widget?.variant ?? 'compact';
    const text = config.widget?.text || t('launcher.label');
    const live = this.state === 'connected';
    const inCall = this.#inCall;
    // A deployment that cannot be talked to (unknown id, refused origin, inactive) says so on the launcher at load.
    const down = this.attributeProblem !== null || this.state === 'error' || this.mode === 'unavailable';
    // A launcher that shows its words is named by them (the unavailable line included); a tiny one by its label.
    const label = live
      ? `${text} (${t('popup.live')})`
      : down && variant === 'tiny'
        ? `${text} (${t('unavailable.title')})`
        : variant === 'tiny'
          ? text
          : null;
    const image = this.session?.deployment?.thumbnail_image_url;
    // The header names the call, which has no heading of its own; every screen before and after it has one
    // (the preview's is this same title), so there the header shows only its buttons. The dialog keeps its name.
    return html`
      ${this.customizationStyles.render(customizationCss(config))}
      <button class="launcher ${variant} ${down ? 'down' : ''}" part="launcher" aria-haspopup="dialog" aria-expanded=${this.opened ? 'true' : 'false'}
        aria-label=${label ?? nothing} @click=${() => void this.open()}>
        ${variant === 'full' && image ? html`<img class="face" src=${image} alt="" />` : bubble}
        ${variant === 'tiny' ? nothing : down ? html`<span class="words"><span>${text}</span> <span class="down-text">${t('unavailable.title')}</span></span>` : html`<span>${text}</span>`}
        ${live ? html`<span class="live" aria-hidden="true"></span>` : nothing}
        ${down ? html`<span class="down-badge" aria-hidden="true">!</span>` : nothing}
      </button>
      <dialog part="panel" aria-label=${config.preview?.title || t('popup.label')} @cancel=${this.#onCancel} @close=${this.#onDialogClose}>
        <div class="header" part="header">
          <span>${this.mode === 'call' ? config.preview?.title || t('popup.label') : nothing}</span>
          <span class="actions">
            ${inCall ? html`<button class="minimise" aria-label=${t('popup.minimise')} @click=${() => void this.close()}><span aria-hidden="true">–</span></button>` : nothing}
            <button class="close" aria-label=${t('popup.close')} @click=${this.#closeFromPopup}><span aria-hidden="true">×</span></button>
          </span>
        </div>
        <div class="body">${this.#everOpened ? renderFlow(this) : nothing}</div>
        ${this.confirmingEnd && inCall ? html`<pal-end-confirm .t=${t} @pal-end-answer=${this.#onEndAnswer}></pal-end-confirm>` : nothing}
      </dialog>
    `;
  }

  /** The dialog follows `opened`, however it was set: open(), close(), the attribute or the property. */
  override updated(changed: Map<string, unknown>): void {
    super.updated(changed);
    cornerStack.redrawn();
    if (!changed.has('opened') || !this.dialog) return;
    if (this.opened && !this.dialog.open) {
      this.dialog.showModal();
      // showModal() focuses the first control, the header's ×: the visitor starts on the screen instead.
      void this.screenFocus.focusCurrent();
    }
    if (!this.opened && this.dialog.open) this.dialog.close();
  }

  protected override get flowShown(): boolean {
    return this.opened;
  }

  /** Opening the popup is the visitor's intent (a pointer over the launcher alone is not: the call's code waits). */
  protected override get callWanted(): boolean {
    return this.opened;
  }

  get #inCall(): boolean {
    return this.state === 'connected' || this.state === 'connecting';
  }

  /** Escape reaches the popup only when nothing inside it was open: during a call it minimises. */
  #onCancel(event: Event): void {
    event.preventDefault();
    if (this.#inCall) void this.close();
    else void this.#closeFromPopup();
  }

  #onDialogClose(): void {
    if (this.opened) this.opened = false;
  }

  /** × asks before ending a live call; before the call it ends a pending device check and closes. */
  async #closeFromPopup(): Promise<void> {
    if (this.#inCall) {
      // The question comes with the call's parts, fetched while the visitor was on the preview.
      await this.callParts().catch(() => undefined);
      this.confirmingEnd = true;
      return;
    }
    if (this.mode === 'haircheck') await this.endConversation();
    await this.close();
  }

  #onEndAnswer(event: PalEndAnswerEvent): void {
    if (event.detail.end) void this.#endFromConfirm();
    else this.#keepTalking();
  }

  #keepTalking(): void {
    this.confirmingEnd = false;
    void this.updateComplete.then(() => this.closeButton?.focus());
  }

  async #endFromConfirm(): Promise<void> {
    this.confirmingEnd = false;
    await this.endConversation();
    await this.close();
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-widget': PalWidget;
  }
}
