// The in-call surface, usable alone (conversation-url + meeting-token, no deployment) or inside the
// widget, embed and landing page (which pass their session).
import { LitElement, html, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ApiClient } from '../../client/api.js';
import { PalClientError } from '../../client/errors.js';
import { ConversationSession } from '../../client/session.js';
import type { SessionMode, SessionState } from '../../client/session-events.js';
import type { PalControls } from '../controls/controls.js';
import type { PalControlEvent } from '../events/control.js';
import type { PalTranscript } from '../transcript/transcript.js';
import { SessionController } from '../controllers/session-controller.js';
import { PalErrorEvent } from '../events/error.js';
import { languageOf, translatorFor, type StringKey, type Translate } from '../i18n/strings.js';
import { bringIntoView } from '../shared/into-view.js';
import { toOutgoing, type OutgoingMessage } from '../shared/messages.js';
import { buttonStyles } from '../styles/shared.js';
import { tokens } from '../styles/tokens.js';
import { conversationStyles } from './conversation.styles.js';

/**
 * @tagname pal-conversation
 * @summary A live conversation: the PAL's video, self view, disclosure banner, captions and chat, Magic
 * Canvas cards and the call controls. Joins `conversation-url` with `meeting-token` on its own, or shows
 * the session a widget/embed/landing page gives it.
 * @csspart stage - The video stage (forwarded from pal-stage).
 * @csspart recording - The "recorded" badge (forwarded from pal-stage).
 * @csspart ai-mark - The small "AI" mark on the PAL's video, shown unless the deployment's
 * `customization.ai_mark` is false (forwarded from pal-stage).
 * @csspart captions - The live captions (forwarded from pal-transcript).
 * @csspart transcript - The chat panel (forwarded from pal-transcript).
 * @csspart banner - The AI disclosure banner (forwarded from pal-disclosure).
 * @csspart card - The Magic Canvas card: beside the stage on a wide surface, a sheet under it on a narrow
 * one, never over the PAL; where that sheet would be a strip (a short call), a one-line chip the visitor expands
 * (forwarded from pal-canvas).
 * @csspart controls - The control bar.
 * @csspart mode-switch - The chat's "Switch to text" / "Switch to voice" button.
 * @csspart notice - What the visitor should know while the call goes on ("can't hear you", "reconnecting").
 * @csspart ended - What is shown once the call has ended (standalone use).
 * @fires {PalConversationStartedEvent} pal-conversation-started - (standalone) joined.
 * @fires {PalConversationEndedEvent} pal-conversation-ended - (standalone) the call ended.
 * @fires {PalStateChangeEvent} pal-state-change - (standalone) state changed.
 * @fires {PalModeChangeEvent} pal-mode-change - (standalone) mode changed.
 * @fires {PalErrorEvent} pal-error - (standalone) something failed.
 * @fires {PalToolCallEvent} pal-tool-call - (standalone) the PAL called a tool.
 * @fires {PalProtocolMessageEvent} pal-protocol-message - (standalone) an interactions-protocol message arrived.
 * @fires {PalCanvasInteractionEvent} pal-canvas-interaction - (standalone) a canvas interaction was recorded.
 * @fires {PalTurnLatencyEvent} pal-turn-latency - (standalone) what the visitor heard of a PAL reply, measured in the page.
 */
export class PalConversation extends LitElement {
  static override styles = [tokens, buttonStyles, conversationStyles];

  /** Room to join (local room or Daily). */
  @property({ attribute: 'conversation-url' }) conversationUrl = '';
  @property({ attribute: 'meeting-token' }) meetingToken = '';
  /** Service for canvas interactions; defaults to the conversation URL's origin. */
  @property({ attribute: 'api-base' }) apiBase = '';
  /** UI language; empty uses the nearest `lang` around the element, else the page's. */
  @property() override lang = '';
  /** Set by a shell; when set, this element only renders it (the shell fires the page events). */
  @property({ attribute: false }) session: ConversationSession | null = null;
  /** Translator given by a shell (its language and deployment `customization.strings`). */
  @property({ attribute: false }) t: Translate | null = null;
  @property({ attribute: false }) fallbackVideoUrl: string | null = null;
  @property({ attribute: false }) fallbackImageUrl: string | null = null;
  @state() private captionsOn = true;
  @state() private chatOn = false;
  /** The notice's words shown whole (a tap on them), instead of on one line. */
  @state() private noticeOpen = false;
  /** The session's text mode when last rendered: entering it opens the chat, leaving it closes the chat. */
  #textMode = false;

  readonly #given = new SessionController(this, { emit: false });
  readonly #own = new SessionController(this, { emit: true });

  get state(): SessionState {
    return this.#active?.state ?? 'idle';
  }

  get mode(): SessionMode {
    return this.#active?.mode ?? 'idle';
  }

  get #active(): ConversationSession | null {
    return this.session ?? this.#own.session;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('session')) this.#given.attach(this.session);
    const textMode = this.#active?.textMode ?? false;
    if (textMode !== this.#textMode) {
      this.#textMode = textMode;
      this.chatOn = textMode;
    }
  }

  override updated(changed: Map<string, unknown>): void {
    if (!this.session && (changed.has('conversationUrl') || changed.has('meetingToken')) && this.conversationUrl && this.meetingToken)
      void this.startConversation();
    const banner = this.renderRoot.querySelector('.overlays');
    if (banner !== this.#observedBanner) {
      if (this.#observedBanner) this.#sizes.unobserve(this.#observedBanner);
      if (banner) this.#sizes.observe(banner);
      this.#observedBanner = banner;
    }
    // On its own in a page (no shell around it), the call starts in view: the page scrolls to it once.
    const own = this.#own.session;
    if (!this.session && own && own !== this.#shownSession && own.mode !== 'ended') {
      this.#shownSession = own;
      bringIntoView(this);
    }
  }

  /**
   * The banner's height where it takes a row of its own (narrow surfaces): the layout's minimum for the stage's
   * row counts it exactly, so a wrapped disclosure (two or three lines at 320 px) never eats the PAL's third.
   */
  readonly #sizes = new ResizeObserver((entries) => {
    for (const entry of entries) {
      const { inlineSize, blockSize } = entry.borderBoxSize[0] ?? { inlineSize: 0, blockSize: 0 };
      if (entry.target === this) this.callSize = [inlineSize, blockSize];
      else this.renderRoot.querySelector<HTMLElement>('.layout')?.style.setProperty('--pal-banner-height', `${Math.ceil(blockSize)}px`);
    }
  });
  /** The call's width and height (a card's room with the chat open follows them). */
  @state() private callSize: [number, number] = [0, 0];
  #observedBanner: Element | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#sizes.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#sizes.disconnect();
    this.#observedBanner = null;
  }

  /**
   * A card under the stage (portrait or narrow; landscape under 1200 px with the chat open) in a call under
   * 720 px tall with the chat open (under 540 px without): what the PAL's third, the banner, the chat's three
   * lines or the captions leave it is a strip (46 px at 320 px), so it is a chip the visitor expands there.
   */
  get #cardCompact(): boolean {
    const [width, height] = this.callSize;
    const cardBeside = width >= 600 && width > height && !(this.chatOn && width < 1200);
    // Not measured yet (a shell's hidden popup): the card as it is, not a chip that flashes.
    return height > 0 && !cardBeside && height < (this.chatOn ? 720 : 540);
  }

  /** The standalone session last brought into view. */
  #shownSession: ConversationSession | null = null;

  /** Joins `conversation-url` (standalone use). Never rejects; failures are `pal-error`. */
  startConversation(): Promise<void> {
    if (this.session) return this.session.startConversation();
    const url = this.conversationUrl;
    if (!url || !this.meetingToken) {
      this.dispatchEvent(new PalErrorEvent({ code: 'join_failed', message: 'conversation-url and meeting-token are required.' }));
      return Promise.resolve();
    }
    let own = this.#own.session;
    if (!own || own.conversation?.conversation_url !== url || own.mode === 'ended') {
      own = new ConversationSession({ api: new ApiClient({ apiBase: this.apiBase || new URL(url).origin }) });
      this.#own.attach(own, true);
    }
    return own.join(url, this.meetingToken);
  }

  async endConversation(): Promise<void> {
    await this.#active?.endConversation();
  }

  /** Focuses the call's main control (the microphone). */
  async focusFirst(): Promise<void> {
    await this.updateComplete;
    const controls = this.renderRoot.querySelector<PalControls>('pal-controls');
    await controls?.updateComplete;
    controls?.focusFirst();
  }

  /** Sends an interactions-protocol event; a string is sent as `conversation.respond`. */
  sendMessage(event: string | OutgoingMessage): void {
    try {
      if (!this.#active) throw new PalClientError('not_connected', 'There is no live conversation.');
      this.#active.send(toOutgoing(event));
    } catch (error) {
      const e = error instanceof PalClientError ? error : new PalClientError('not_connected', String(error));
      this.dispatchEvent(new PalErrorEvent({ code: e.code, message: e.message }));
    }
  }

  /** Sends text as the visitor. */
  sendChat(text: string): void {
    this.sendMessage(text);
  }

  override render() {
    const session = this.#active;
    const t = this.t ?? translatorFor(this, languageOf(this));
    if (!session) return nothing;
    // The call is over: its stage, captions and controls go (they would stand frozen), and it says so.
    if (session.mode === 'ended')
      return html`<div class="ended" part="ended" role="status"><h2>${t('ended.title')}</h2><p>${t('ended.description')}</p></div>`;
    const connecting = session.state === 'connecting';
    // Transcript rows name the PAL as the room does (its name), not a generic "PAL".
    const palName = session.participants.find((p) => p.role === 'pal')?.name ?? '';
    return html`
      <div class="layout ${this.chatOn ? 'chat' : ''}">
        <div class="main ${this.chatOn ? 'chat' : ''}">
          <pal-stage exportparts="stage,recording,ai-mark" .t=${t} .participants=${session.participants} ?recording=${session.recording}
            .aiMark=${session.deployment?.customization.ai_mark !== false}
            .fallbackVideoUrl=${this.fallbackVideoUrl} .fallbackImageUrl=${this.fallbackImageUrl}></pal-stage>
          <div class="overlays">
            <pal-disclosure exportparts="banner" .t=${t} .link=${session}></pal-disclosure>
          </div>
          <pal-transcript class="captions" mode="captions" exportparts="captions" .t=${t} .link=${session} .palName=${palName} ?hidden=${!this.captionsOn || this.chatOn}></pal-transcript>
          <pal-transcript class="panel" mode="panel" exportparts="transcript" .t=${t} .link=${session} .palName=${palName} ?hidden=${!this.chatOn}
            @keydown=${this.#closeChatOnEscape}>
            <button slot="toolbar" class="mode" part="mode-switch" @click=${this.#switchMode}>
              ${session.textMode ? t('controls.voice_mode') : t('controls.text_mode')}
            </button>
          </pal-transcript>
          ${connecting ? html`<div class="overlay" role="status">${t('connecting.title')}</div>` : nothing}
        </div>
        <pal-canvas docked exportparts="card" .t=${t} .link=${session} .compact=${this.#cardCompact}></pal-canvas>
        ${this.#notice(session, t)}
        <pal-controls exportparts="controls" .t=${t} .microphoneOn=${session.microphoneOn} .cameraOn=${session.cameraOn}
          .captionsOn=${this.captionsOn} .chatOn=${this.chatOn}
          .audioDeviceId=${session.audioDeviceId ?? ''} .videoDeviceId=${session.videoDeviceId ?? ''}
          @pal-control=${this.#onControl}></pal-controls>
      </div>
    `;
  }

  /** Tells the visitor plainly when the PAL cannot hear them (and offers typing) or has no voice. */
  #notice(session: ConversationSession, t: Translate) {
    const code = session.notice;
    // The notices name the PAL the visitor sees ("Nova can't hear you"), not "the PAL".
    const palName = session.participants.find((p) => p.role === 'pal')?.name ?? '';
    if (!code || !NOTICES.has(code)) return nothing;
    // A visitor typing in the open chat needs no row asking them to type (the PAL says so in the chat too); it
    // comes back when the chat closes. Why the call went over to text (microphone) and the connection's and the
    // voice's state stay: they say something the chat does not.
    if (this.chatOn && ASK_TO_TYPE.has(code)) return nothing;
    const canType = code !== 'voice_unavailable' && code !== 'reconnecting' && !this.chatOn;
    // One line (the words cut with an ellipsis; a tap on them shows them whole), its buttons beside.
    return html`
      <div class="notice" part="notice" role="status">
        <button class="words" aria-expanded=${this.noticeOpen ? 'true' : 'false'} @click=${() => (this.noticeOpen = !this.noticeOpen)}>${t(`notice.${code}` as StringKey).replaceAll('{name}', palName || t('transcript.pal'))}</button>
        ${canType ? html`<button class="primary" @click=${() => (this.chatOn = true)}>${t('notice.type')}</button>` : nothing}
        <button class="dismiss" aria-label=${t('notice.dismiss')} @click=${() => session.dismissNotice()}>×</button>
      </div>
    `;
  }

  /** The chat's voice/text switch: text puts the cursor in the chat box; voice closes the chat and focuses the microphone. */
  async #switchMode(): Promise<void> {
    const session = this.#active;
    if (!session) return;
    session.setTextMode(!session.textMode);
    await this.updateComplete;
    if (session.textMode) await this.renderRoot.querySelector<PalTranscript>('pal-transcript.panel')?.focusChat();
    else await this.focusFirst();
  }

  /** Escape in the chat panel closes the panel (only it); focus returns to the chat button. */
  #closeChatOnEscape(event: KeyboardEvent): void {
    if (event.key !== 'Escape' || !this.chatOn) return;
    event.preventDefault();
    event.stopPropagation();
    this.chatOn = false;
    void this.updateComplete.then(() => this.renderRoot.querySelector<PalControls>('pal-controls')?.focusControl('chat'));
  }

  #onControl(event: PalControlEvent): void {
    const session = this.#active;
    if (!session) return;
    switch (event.detail.action) {
      case 'microphone':
        return session.setMicrophone(!session.microphoneOn);
      case 'camera':
        return session.setCamera(!session.cameraOn);
      case 'device':
        return void session.setDevices(event.detail.device ?? {});
      case 'end':
        return void session.endConversation();
      case 'captions':
        this.captionsOn = !this.captionsOn;
        return;
      case 'chat':
        this.chatOn = !this.chatOn;
        // Opening the chat puts the cursor in the message box (it is last in the panel, many Tab stops away).
        if (this.chatOn)
          void this.updateComplete.then(() => this.renderRoot.querySelector<PalTranscript>('pal-transcript.panel')?.focusChat());
        return;
    }
  }
}

const NOTICES = new Set(['hearing_unavailable', 'microphone_unavailable', 'voice_unavailable', 'not_heard', 'reconnecting']);
/** The notices whose point is "type instead". */
const ASK_TO_TYPE = new Set(['hearing_unavailable', 'not_heard']);

declare global {
  interface HTMLElementTagNameMap {
    'pal-conversation': PalConversation;
  }
}
