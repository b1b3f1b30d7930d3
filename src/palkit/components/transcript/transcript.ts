import { html, LitElement, nothing, svg, type PropertyValues } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { ConversationLink } from '../../client/link.js';
import { LinkSubscription } from '../controllers/link-subscription.js';
import { clientMessage, type PalMessage } from '../../../protocol/interactions.js';
import type { IncallStringKey, IncallStrings } from '../i18n/strings-incall.js';
import { languageOf, translatorFor, withStrings, type Translate } from '../i18n/strings.js';
import { RowWindow } from './row-window.js';
import { ScrollerSize } from './scroller-size.js';
import { saveBlob, transcriptJson, transcriptText, type TranscriptFormat } from './transcript-export.js';
import { TranscriptModel, type TranscriptEntry } from './transcript-model.js';
import { transcriptStyles } from './transcript.styles.js';
import { styleProps } from '../shared/style-props.js';

export type TranscriptMode = 'panel' | 'captions';

// The downloads show an arrow and the file's kind (".txt"), named in full for screen readers ("Download
// .txt"): with the voice/text switch they fit one row of a 320 px phone in every language (issue 54).
const downloadIcon = svg`<svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"><path d="M8 2v8M4.5 6.5 8 10l3.5-3.5M3 13.5h10"/></svg>`;

// One transcript per link speaks to screen readers, so a captions strip and a panel on the same call
// never announce the same sentence twice.
const announcers = new WeakMap<ConversationLink, PalTranscript>();
const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const rowEstimate = 64;
const renderOverscan = 600;
const scrollSlack = 100;
const bottomTolerance = 24;

/**
 * @tagname pal-transcript
 * @summary Live captions (`mode="captions"`) or the transcript panel (`mode="panel"`, default) of a
 * conversation: both roles with timestamps, interrupted turns marked, a text chat that sends
 * `conversation.respond`, auto-scroll that pauses while the reader looks back, and downloads.
 *
 * Captions follow `conversation.utterance.streaming` partials and are replaced by the complete
 * `conversation.utterance`; the panel shows a reply's row from its first streamed words (completed by
 * the utterance; a reply cut off keeps what was said, marked interrupted) and, after a reload, what the
 * room kept of the conversation. Rows are windowed, so thousands
 * of entries stay smooth. Screen readers hear each complete PAL utterance once, politely.
 *
 * @csspart transcript - The scrolling list of entries (panel).
 * @csspart captions - The caption box (captions).
 * @csspart chat - The chat form (panel).
 * @cssproperty [--pal-transcript-height=100%] - Height of the panel.
 * @cssproperty [--pal-captions-background=rgb(0 0 0 / 0.72)] - Caption box background.
 * @cssproperty [--pal-captions-color=#ffffff] - Caption text colour.
 * @cssproperty [--pal-captions-font-size=1.05em] - Caption text size.
 * @cssproperty [--pal-captions-lines=3] - Lines of caption kept on screen.
 */
export class PalTranscript extends LitElement {
  static override styles = transcriptStyles;

  @property({ reflect: true }) mode: TranscriptMode = 'panel';
  /** Name shown for the PAL's turns. */
  @property({ attribute: 'pal-name' }) palName = '';
  @property({ type: Boolean, reflect: true, attribute: 'hide-chat' }) hideChat = false;
  /** `off` keeps this element from announcing utterances to screen readers. */
  @property() live: 'polite' | 'off' = 'polite';
  /** Milliseconds a finished caption stays on screen. */
  @property({ type: Number, attribute: 'caption-hold' }) captionHold = 4000;
  @property({ attribute: false }) strings: IncallStrings | null = null;
  /** Translator of the surrounding conversation (its language and deployment overrides); else this element's `lang`. */
  @property({ attribute: false }) t: Translate | null = null;

  /** The conversation data (complete utterances and the current caption). */
  readonly model = new TranscriptModel();

  @state() private following = true;
  @state() private unseen = 0;
  @state() private captionVisible = false;
  @state() private announcement = '';
  @query('.scroller') private scroller?: HTMLElement;
  @query('ol') private list?: HTMLOListElement;

  private readonly rows = new RowWindow(rowEstimate);
  private rendered: [number, number] = [0, 0];
  private captionTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly scrollerSize = new ScrollerSize((widthChanged) => {
    if (widthChanged) this.rows.resetHeights();
    this.requestUpdate();
  });
  /** A render asked for the next frame (rows the measured heights showed missing). */
  #frame = 0;
  private readonly subscription = new LinkSubscription(this, {
    onMessage: (m) => this.onPalMessage(m),
    onHistory: (history) => {
      if (this.model.load(history)) this.requestUpdate();
    },
    // One transcript per conversation speaks to screen readers: the first one that listens.
    attached: (link) => {
      const current = announcers.get(link);
      if (!current?.isConnected || current.live === 'off') announcers.set(link, this);
    },
    detached: (link) => {
      if (announcers.get(link) === this) announcers.delete(link);
    },
  });

  @property({ attribute: false })
  get link(): ConversationLink | null {
    return this.subscription.link;
  }
  set link(link: ConversationLink | null) {
    this.subscription.link = link;
  }

  /** Complete utterances and chat lines, oldest first. */
  get entries(): readonly TranscriptEntry[] {
    return this.model.entries;
  }

  /** Whether the panel keeps scrolling to the newest entry (false after the reader scrolled up). */
  get autoScroll(): boolean {
    return this.following;
  }

  // The panel is rendered only while it is shown: hidden (the chat closed, as for most of a call), each entry's
  // render measured every row's height (a layout of the page) for nothing, at each turn's start. Its model
  // keeps up all the same, and showing it renders it whole.
  // (`hidden` is the global attribute, watched here rather than made one of the element's own.)
  readonly #shown = new MutationObserver(() => this.requestUpdate());

  protected override shouldUpdate(): boolean {
    return this.mode !== 'panel' || !this.hidden;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#shown.observe(this, { attributes: true, attributeFilter: ['hidden'] });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#shown.disconnect();
    clearTimeout(this.captionTimer);
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.scrollerSize.stop();
  }

  /** Send a chat line as the visitor (`conversation.respond`); false when empty or not in a call. */
  sendChat(text: string): boolean {
    const line = text.trim();
    const link = this.link;
    if (!line || !link) return false;
    link.send(clientMessage('conversation.respond', { text: line }, link.conversationId));
    this.model.addChat(line);
    this.scrollToLatest();
    return true;
  }

  /** Puts the cursor in the chat box (panel). */
  async focusChat(): Promise<void> {
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLInputElement>('input[name=chat]')?.focus();
  }

  /** Return to the newest entry and resume auto-scroll. */
  scrollToLatest(): void {
    this.following = true;
    this.unseen = 0;
    this.requestUpdate();
  }

  /** The whole transcript as a file body. */
  exportTranscript(format: TranscriptFormat = 'txt'): Blob {
    if (format === 'json') return new Blob([transcriptJson(this.entries, this.link?.conversationId)], { type: 'application/json' });
    const labels = { user: this.msg('transcript.you'), replica: this.palLabel, interrupted: this.msg('transcript.interrupted') };
    return new Blob([transcriptText(this.entries, labels)], { type: 'text/plain;charset=utf-8' });
  }

  /** Save the whole transcript (.txt or .json) through a Blob URL. */
  download(format: TranscriptFormat = 'txt'): void {
    const id = this.link?.conversationId;
    saveBlob(this.exportTranscript(format), `${this.msg('transcript.fileName')}${id ? `-${id}` : ''}.${format}`);
  }

  private get palLabel(): string {
    return this.palName || this.msg('transcript.pal');
  }

  private msg(key: IncallStringKey): string {
    return withStrings(this.t ?? translatorFor(this, languageOf(this)), this.strings)(key);
  }

  private get announces(): boolean {
    const link = this.subscription.subscribed;
    return this.live !== 'off' && link !== null && announcers.get(link) === this;
  }

  private onPalMessage(message: PalMessage): void {
    const result = this.model.apply(message);
    if (result.entries && this.mode === 'panel') {
      if (!this.following && message.event_type === 'conversation.utterance') this.unseen++;
      this.requestUpdate();
    }
    if (this.mode === 'captions') {
      if (result.caption) this.showCaption();
      if (message.event_type === 'conversation.replica.stopped_speaking') this.holdCaption();
    }
    if (result.announce && this.announces) this.announcement = result.announce;
  }

  private showCaption(): void {
    this.captionVisible = true;
    clearTimeout(this.captionTimer);
    this.captionTimer = undefined;
    if (this.model.caption?.final || this.model.caption?.interrupted) this.holdCaption();
    this.requestUpdate();
  }

  private holdCaption(): void {
    clearTimeout(this.captionTimer);
    this.captionTimer = setTimeout(() => (this.captionVisible = false), this.captionHold);
  }

  private readonly onScroll = (): void => {
    const s = this.scroller;
    if (!s) return;
    const atBottom = s.scrollHeight - s.scrollTop - s.clientHeight <= bottomTolerance;
    if (atBottom !== this.following) {
      this.following = atBottom;
      if (atBottom) this.unseen = 0;
    }
    // Re-render only when the rows needed for the viewport are not all in the DOM.
    const [start, end] = this.rows.range(s.scrollTop - scrollSlack, s.scrollTop + s.clientHeight + scrollSlack);
    if (start < this.rendered[0] || end > this.rendered[1]) this.requestUpdate();
  };

  private onChatSubmit(event: SubmitEvent): void {
    event.preventDefault();
    const input = (event.currentTarget as HTMLFormElement).querySelector('input')!;
    if (this.sendChat(input.value)) input.value = '';
  }

  private visibleRange(): [number, number] {
    const s = this.scroller;
    const viewport = s?.clientHeight || 600;
    if (this.following || !s) return this.rows.tail(viewport + renderOverscan);
    return this.rows.range(s.scrollTop - renderOverscan, s.scrollTop + viewport + renderOverscan);
  }

  protected override render() {
    return this.mode === 'captions' ? this.renderCaptions() : this.renderPanel();
  }

  private renderAnnouncer() {
    return html`<div class="sr-only" role="status">${this.announces ? this.announcement : ''}</div>`;
  }

  /**
   * A reply the visitor cut short reads as speech that trails off ("The Trail 29 comes in sizes…"), as the
   * hosted chat shows what was said; screen readers and the downloads say "interrupted" (issue 54: a bold
   * "— interrupted" after the words read as an error).
   */
  private cutShort(said: string) {
    const label = this.msg('transcript.interrupted');
    return html`${said.replace(/[\s.,;:—–-]+$/u, '')}<span class="interrupted" title=${label}>…</span><span class="sr-only"> (${label})</span>`;
  }

  private renderCaptions() {
    const caption = this.model.caption;
    const show = this.captionVisible && caption !== null && caption.text !== '';
    return html`
      <div part="captions" ?hidden=${!show} aria-label=${this.msg('transcript.captionsLabel')} role="group">
        <p class="caption-text" data-role=${caption?.role ?? 'pal'}>
          <span>${caption?.interrupted ? this.cutShort(caption.text) : caption?.text}</span>
        </p>
      </div>
      ${this.renderAnnouncer()}
    `;
  }

  private renderPanel() {
    const entries = this.model.entries;
    this.rows.setCount(entries.length);
    const [start, end] = (this.rendered = this.visibleRange());
    const top = this.rows.offset(start);
    const bottom = this.rows.total - this.rows.offset(end);
    return html`
      <div class="toolbar">
        <slot name="toolbar"></slot>
        <button type="button" class="download" aria-label=${this.msg('transcript.downloadTxt')} ?disabled=${entries.length === 0} @click=${() => this.download('txt')}>${downloadIcon}.txt</button>
        <button type="button" class="download" aria-label=${this.msg('transcript.downloadJson')} ?disabled=${entries.length === 0} @click=${() => this.download('json')}>${downloadIcon}.json</button>
      </div>
      <div class="scroller" part="transcript" role="log" aria-live="off" aria-label=${this.msg('transcript.label')} tabindex="0" @scroll=${this.onScroll}>
        ${entries.length === 0 ? html`<p class="empty">${this.msg('transcript.empty')}</p>` : nothing}
        <ol style=${styleProps({ paddingBlock: `${top}px ${bottom}px` })}>
          ${repeat(
            entries.slice(start, end),
            (e) => e.id,
            (e, i) => this.renderRow(e, start + i, entries.length),
          )}
        </ol>
      </div>
      ${
        !this.following && this.unseen > 0
          ? html`<button class="jump" type="button" @click=${() => this.scrollToLatest()}>${this.msg('transcript.jumpToLatest')} (${this.unseen})</button>`
          : nothing
      }
      ${
        this.hideChat
          ? nothing
          : html`<form part="chat" @submit=${this.onChatSubmit}>
            <input
              type="text"
              name="chat"
              autocomplete="off"
              maxlength="2000"
              aria-label=${this.msg('transcript.chatLabel')}
              placeholder=${this.msg('transcript.chatPlaceholder')}
              ?disabled=${!this.link}
            />
            <button type="submit" ?disabled=${!this.link}>${this.msg('transcript.send')}</button>
          </form>`
      }
      ${this.renderAnnouncer()}
    `;
  }

  private renderRow(entry: TranscriptEntry, index: number, count: number) {
    const when = new Date(entry.timestamp);
    if (entry.role === 'tool') {
      return html`<li class="tool" data-index=${index} aria-posinset=${index + 1} aria-setsize=${count}>
        <span class="meta">${this.msg('transcript.usedTool')} <code>${entry.speech}</code></span>
      </li>`;
    }
    return html`<li
      class="${entry.role}${entry.pending ? ' pending' : ''}${entry.streaming ? ' streaming' : ''}"
      data-index=${index}
      aria-posinset=${index + 1}
      aria-setsize=${count}
    >
      <span class="meta"
        ><span class="speaker">${entry.role === 'replica' ? this.palLabel : this.msg('transcript.you')}</span
        ><time datetime=${when.toISOString()}>${timeFormat.format(when)}</time></span
      >
      <span class="bubble"
        >${entry.interrupted ? this.cutShort(entry.speech) : entry.speech}</span
      >
    </li>`;
  }

  protected override firstUpdated(): void {
    this.observeSize();
  }

  protected override updated(changed: PropertyValues): void {
    if (changed.has('mode')) this.observeSize();
    if (this.mode !== 'panel' || !this.list) return;
    // Measure the rows now in the DOM and set the list's spacers from the measured heights here, without
    // another render: a render scheduled from updated() is Lit's "scheduled an update after an update
    // completed" (issue 54). Only rows the new heights leave missing from the view need one, next frame.
    let changedHeights = false;
    for (const row of this.list.children) {
      const index = Number((row as HTMLElement).dataset.index);
      changedHeights = this.rows.setHeight(index, (row as HTMLElement).offsetHeight) || changedHeights;
    }
    if (changedHeights) {
      const [start, end] = this.rendered;
      this.list.style.setProperty('padding-block', `${this.rows.offset(start)}px ${this.rows.total - this.rows.offset(end)}px`);
    }
    if (this.following && this.scroller) this.scroller.scrollTop = this.scroller.scrollHeight;
    if (changedHeights && !this.covers(this.visibleRange())) this.#renderNextFrame();
  }

  /** Whether the rows in the DOM include every row of `range` (the rows the view needs). */
  private covers([start, end]: [number, number]): boolean {
    return start >= this.rendered[0] && end <= this.rendered[1];
  }

  #renderNextFrame(): void {
    if (this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.requestUpdate();
    });
  }

  private observeSize(): void {
    if (this.mode === 'panel') this.scrollerSize.watch(this.scroller);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pal-transcript': PalTranscript;
  }
}
