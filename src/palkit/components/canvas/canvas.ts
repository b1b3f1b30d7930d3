import { html, LitElement, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { CanvasInteractionBody, ConversationLink } from '../../client/link.js';
import { LinkSubscription } from '../controllers/link-subscription.js';
import { isCanvasComponent, parseCanvasAction, validateCanvasArgs, type CanvasCardSpec } from '../../../protocol/canvas.js';
import type { PalMessage } from '../../../protocol/interactions.js';
import { PalCanvasInteractionEvent } from '../events/canvas-interaction.js';
import type { IncallStringKey, IncallStrings } from '../i18n/strings-incall.js';
import { languageOf, translatorFor, withStrings, type Translate } from '../i18n/strings.js';
import { canvasStyles } from './canvas.styles.js';
import type { CardContext, Draft } from './cards/card-context.js';
import { cards, loadCard } from './cards/card-modules.js';
import { cardHeading, cardLabel } from './card-labels.js';
import { interactionBody, postInteraction, recordInBackground } from './interactions.js';

interface CardState {
  readonly key: number;
  readonly toolCallId: string;
  spec: CanvasCardSpec;
  readonly draft: Draft;
  /** `failed` keeps the card and the user's value on screen with a retry. */
  status: 'idle' | 'sending' | 'failed' | 'done';
  /** The interaction being recorded; a retry posts the very same body (same interaction_id). */
  pending?: CanvasInteractionBody;
}

/**
 * @tagname pal-canvas
 * @summary Magic Canvas: shows the PAL's cards (question, input, calendar, scheduling_embed, text,
 * chart, alert), one at a time in the left or right safe area of the stage. `update_component` patches
 * the visible card, `canvas_clear` removes it. Every interaction is recorded with the interactions
 * endpoint through `link.postCanvasInteraction()`; a failed post keeps the card and the value with a
 * retry. Cards whose arguments break the limits do not render and record an `error` interaction.
 * No text from the PAL or the page is ever rendered as HTML.
 *
 * Standalone, position it over the stage (it fills its positioned container and only the card takes
 * pointer input). With `docked` (as pal-conversation uses it) the card fills the element instead and the
 * surrounding layout gives it room beside or under the stage, so that it never covers the PAL.
 *
 * @csspart card - The visible card.
 * @cssproperty [--pal-canvas-accent=var(--pal-color-accent)] - Accent of the cards (deployment `magic_canvas.accent_color`).
 * @cssproperty [--pal-canvas-card-width=340px] - Width of a card in a side safe area.
 * @cssproperty [--pal-canvas-inset=16px] - Distance of the card from the stage edges.
 * @cssproperty [--pal-canvas-inset-bottom=88px] - Room kept free at the bottom for the call controls.
 * @fires {PalCanvasInteractionEvent} pal-canvas-interaction - A card interaction was recorded; `detail` is the body (PalCanvasInteractionEvent).
 */
export class PalCanvas extends LitElement {
  static override styles = canvasStyles;

  @property({ attribute: false }) strings: IncallStrings | null = null;
  /** Translator of the surrounding conversation (its language and deployment overrides); else this element's `lang`. */
  @property({ attribute: false }) t: Translate | null = null;
  /** Side of the visible card (`left` or `right`), reflected for the surrounding layout; empty when none. */
  @property({ reflect: true, attribute: 'card-side' }) cardSide = '';
  /**
   * The surrounding layout gives the card room of its own (pal-conversation: a side panel or a bottom
   * sheet): the card fills this element instead of floating over a stage.
   */
  @property({ type: Boolean, reflect: true }) docked = false;
  /** A card is drawn (its kind's code has arrived), reflected so that a docked layout makes room only then. */
  @property({ type: Boolean, reflect: true, attribute: 'has-card' }) hasCard = false;
  /**
   * The layout has no readable room for a card (pal-conversation: the chat open on a short phone): the card
   * shows as a one-line chip the visitor can expand, and minimise again.
   */
  @property({ type: Boolean }) compact = false;
  /** A compact card the visitor expanded, reflected so that the layout gives it the room. */
  @property({ type: Boolean, reflect: true }) expanded = false;

  @state() private current: CardState | null = null;
  @state() private announcement = '';
  private cardCount = 0;
  private alertTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly subscription = new LinkSubscription(this, { onMessage: (m) => this.onPalMessage(m) });

  @property({ attribute: false })
  get link(): ConversationLink | null {
    return this.subscription.link;
  }
  set link(link: ConversationLink | null) {
    this.subscription.link = link;
  }

  /** The card on screen, if any. */
  get card(): ({ toolCallId: string; status: CardState['status'] } & CanvasCardSpec) | null {
    const c = this.current;
    return c
      ? ({ toolCallId: c.toolCallId, status: c.status, ...c.spec } as { toolCallId: string; status: CardState['status'] } & CanvasCardSpec)
      : null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('message', this.onWindowMessage);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('message', this.onWindowMessage);
    clearTimeout(this.alertTimer);
  }

  private msg(key: IncallStringKey): string {
    return withStrings(this.t ?? translatorFor(this, languageOf(this)), this.strings)(key);
  }

  private onPalMessage(message: PalMessage): void {
    if (message.event_type !== 'conversation.tool_call') return;
    const action = parseCanvasAction(message.properties);
    if (!action) return;
    const card = this.current;
    switch (action.kind) {
      case 'show':
        this.show({
          key: ++this.cardCount,
          toolCallId: action.toolCallId,
          spec: { component: action.component, args: action.args } as CanvasCardSpec,
          draft: {},
          status: 'idle',
        });
        return;
      case 'update': {
        if (!card || (action.targetToolCallId && action.targetToolCallId !== card.toolCallId)) return;
        const args = { ...card.spec.args, ...action.patch } as Record<string, unknown>;
        const checked = validateCanvasArgs(card.spec.component, args);
        if (!checked.ok) {
          this.background(
            this.body(action.toolCallId, card.spec.component, 'error', { code: 'invalid_arguments', message: checked.message }),
          );
          return;
        }
        card.spec = checked.spec;
        // A draft exists once the card has rendered, so its kind's code is there.
        if (card.spec.component === 'question') cards.question?.reconcileQuestionDraft({ args: card.spec.args, draft: card.draft });
        this.show(card);
        return;
      }
      case 'clear':
        if (card) {
          // A card whose answer is being recorded was answered: the PAL's clear is its reaction (it may
          // arrive before the endpoint's reply), not a card taken away unanswered.
          if (card.status !== 'done' && card.status !== 'sending')
            this.background(this.body(card.toolCallId, card.spec.component, 'clear', {}));
          this.removeCard();
        }
        return;
      case 'invalid': {
        const component = isCanvasComponent(action.component) ? action.component : (card?.spec.component ?? action.component);
        this.background(this.body(action.toolCallId, component, 'error', { code: action.code, message: action.message }));
      }
    }
  }

  /** A card whose kind's code is still on its way; updateComplete waits for it. */
  private loadingCard: Promise<void> | null = null;

  private show(card: CardState): void {
    const isNew = this.current !== card;
    this.current = card;
    this.loadKind(card);
    const slot = card.spec.args.layout?.preferred_slot;
    this.cardSide = slot === 'safe-area-left' ? 'left' : 'right';
    if (isNew) {
      this.expanded = false;
      // An alert's text is the point of it; other cards are announced by their title or prompt.
      const alertBody = card.spec.component === 'alert' ? ` ${card.spec.args.body}` : '';
      this.announcement = `${this.msg('canvas.shown')} ${cardLabel(card.spec, (key) => this.msg(key))}.${alertBody}`;
    }
    this.armAlertTimer();
    this.requestUpdate();
  }

  /** Renders the card once its kind's code is there; a card whose code cannot be fetched goes away as an error. */
  private loadKind(card: CardState): void {
    const kind = card.spec.component;
    if (cards[kind]) return;
    const loading: Promise<void> = loadCard(kind)
      .then(
        () => this.requestUpdate(),
        () => {
          if (this.current !== card) return;
          this.background(
            this.body(card.toolCallId, kind, 'error', { code: 'card_unavailable', message: `The ${kind} card could not be loaded.` }),
          );
          this.removeCard();
        },
      )
      .finally(() => {
        if (this.loadingCard === loading) this.loadingCard = null;
      });
    this.loadingCard = loading;
  }

  /** Resolves once the card on screen has rendered, its kind's code included. */
  protected override async getUpdateComplete(): Promise<boolean> {
    let done = await super.getUpdateComplete();
    while (this.loadingCard) {
      await this.loadingCard;
      done = await super.getUpdateComplete();
    }
    return done;
  }

  private removeCard(): void {
    this.current = null;
    this.cardSide = '';
    // The chat an expanded card stood in for comes back with it.
    this.expanded = false;
    clearTimeout(this.alertTimer);
  }

  private armAlertTimer(): void {
    clearTimeout(this.alertTimer);
    const card = this.current;
    if (card?.spec.component !== 'alert' || !card.spec.args.auto_dismiss_seconds) return;
    this.alertTimer = setTimeout(() => this.dismiss(card, 'auto_dismiss'), card.spec.args.auto_dismiss_seconds * 1000);
  }

  /** The body of an interaction, told to the page (pal-canvas-interaction) as it is made. */
  private body(...interaction: Parameters<typeof interactionBody>): CanvasInteractionBody {
    const body = interactionBody(...interaction);
    this.dispatchEvent(new PalCanvasInteractionEvent(body));
    return body;
  }

  private background(body: CanvasInteractionBody): void {
    void recordInBackground(() => this.link, body);
  }

  private submit(card: CardState, type: 'submit' | 'skip', value: Record<string, unknown>): void {
    if (card.status === 'sending' || card.status === 'done') return;
    card.pending = this.body(card.toolCallId, card.spec.component, type, value);
    void this.deliver(card);
  }

  private async deliver(card: CardState): Promise<void> {
    if (!card.pending) return;
    card.status = 'sending';
    this.requestUpdate();
    const ok = await postInteraction(this.link, card.pending);
    if (this.current !== card) return;
    if (!ok) {
      card.status = 'failed';
    } else {
      card.pending = undefined;
      card.status = 'done';
      this.announcement = this.msg('canvas.sent');
      // The booking confirmation inside the scheduling page stays until the user or the PAL closes it.
      if (card.spec.component !== 'scheduling_embed') this.removeCard();
    }
    this.requestUpdate();
  }

  private dismiss(card: CardState, reason?: string): void {
    if (this.current !== card) return;
    if (card.status !== 'done')
      this.background(this.body(card.toolCallId, card.spec.component, 'dismiss', {}, reason ? { reason } : undefined));
    this.removeCard();
  }

  private readonly onWindowMessage = (event: MessageEvent): void => {
    const card = this.current;
    const scheduling = cards.scheduling_embed;
    if (card?.spec.component !== 'scheduling_embed' || !scheduling || event.origin !== scheduling.calendlyOrigin) return;
    const frame = this.renderRoot.querySelector('iframe');
    if (!frame || event.source !== frame.contentWindow) return;
    const booking = scheduling.bookingFrom(event.data);
    if (booking) this.submit(card, 'submit', booking);
  };

  private renderBody(card: CardState) {
    const base = {
      labelInHeading: cardHeading(card.spec, (key) => this.msg(key)).fromLabel,
      toolCallId: card.toolCallId,
      draft: card.draft,
      busy: card.status === 'sending',
      idPrefix: `card${card.key}`,
      t: (key: IncallStringKey) => this.msg(key),
      changed: () => this.requestUpdate(),
      submit: (value: Record<string, unknown>) => this.submit(card, 'submit', value),
      skip: (value?: Record<string, unknown>) => this.submit(card, 'skip', value ?? {}),
      focus: (selector: string) =>
        void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`[part="card"] ${selector}`)?.focus()),
    } satisfies Omit<CardContext<unknown>, 'args'>;
    const spec = card.spec;
    switch (spec.component) {
      case 'question':
        return cards.question?.renderQuestion({ ...base, args: spec.args });
      case 'input':
        return cards.input?.renderInput({ ...base, args: spec.args });
      case 'calendar':
        return cards.calendar?.renderCalendar({ ...base, args: spec.args });
      case 'scheduling_embed':
        return cards.scheduling_embed?.renderScheduling({ ...base, args: spec.args });
      case 'text':
        return cards.text?.renderText({ ...base, args: spec.args });
      case 'chart':
        return cards.chart?.renderChart({ ...base, args: spec.args });
      case 'alert':
        return cards.alert?.renderAlert({ ...base, args: spec.args });
    }
  }

  private renderCard(card: CardState) {
    const spec = card.spec;
    const headingId = `card${card.key}-title`;
    const title = cardHeading(card.spec, (key) => this.msg(key)).text;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        this.dismiss(card);
      }
    };
    const pauseAlert = () => clearTimeout(this.alertTimer);
    // Without a heading the × floats in the body's first line, so no row stands empty above the content.
    const close = html`<button type="button" class="close" aria-label=${this.msg('canvas.dismiss')} @click=${() => this.dismiss(card)}><span aria-hidden="true">×</span></button>`;
    if (this.compact && !this.expanded)
      return html`<section part="card" class="card chip" data-component=${spec.component} aria-label=${cardLabel(card.spec, (key) => this.msg(key))} @keydown=${onKey}>
        <button type="button" class="chip-open" aria-expanded="false" @click=${() => this.toggle(true)}>
          <span class="chip-title">${title || cardLabel(card.spec, (key) => this.msg(key))}</span><span class="chip-action">${this.msg('canvas.expand')}</span>
        </button>${close}
      </section>`;
    const collapse = this.compact
      ? html`<button type="button" class="icon" aria-expanded="true" aria-label=${this.msg('canvas.collapse')} @click=${() => this.toggle(false)}><span aria-hidden="true">–</span></button>`
      : nothing;
    return html`<section
      part="card"
      class="card card-${spec.component} ${spec.component === 'alert' ? `severity-${spec.args.severity ?? 'info'}` : ''}"
      data-component=${spec.component}
      aria-labelledby=${title ? headingId : nothing}
      aria-label=${title ? nothing : cardLabel(card.spec, (key) => this.msg(key))}
      @keydown=${onKey}
      @pointerenter=${pauseAlert}
      @focusin=${pauseAlert}
      @pointerleave=${() => this.armAlertTimer()}
      @focusout=${() => this.armAlertTimer()}
    >
      ${title || this.compact ? html`<header><h2 id=${headingId}>${title}</h2><span class="tools">${collapse}${close}</span></header>` : nothing}
      <div class="body">${title || this.compact ? nothing : close}${this.renderBody(card)}</div>
      ${card.status === 'sending' ? html`<p class="status">${this.msg('canvas.sending')}</p>` : nothing}
      ${card.status === 'done' ? html`<p class="status">${this.msg('canvas.sent')}</p>` : nothing}
      ${
        card.status === 'failed'
          ? html`<div class="failed" role="alert">
            <p>${this.msg('canvas.sendFailed')}</p>
            <button type="button" class="primary" @click=${() => void this.deliver(card)}>${this.msg('canvas.retry')}</button>
          </div>`
          : nothing
      }
    </section>`;
  }

  /** Expands a compact card (or minimises it to its chip); focus stays on the button that did it. */
  private toggle(expanded: boolean): void {
    this.expanded = expanded;
    void this.updateComplete.then(() =>
      this.renderRoot.querySelector<HTMLElement>(expanded ? '[part="card"] button[aria-expanded="true"]' : '.chip-open')?.focus(),
    );
  }

  protected override willUpdate(): void {
    this.hasCard = Boolean(this.current && cards[this.current.spec.component]);
  }

  protected override render() {
    return html`
      ${this.hasCard && this.current ? this.renderCard(this.current) : nothing}
      <div class="sr-only" role="status">${this.announcement}</div>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-canvas': PalCanvas;
  }
}
