// The conversation session: one state machine from deployment init to the end of a call. It owns the API
// calls and the transport, and implements ConversationLink for the in-call parts; the way from the Start
// button into the room (gate, device check, start, join) is start-flow.ts, the visitor's choices
// (microphone, camera, text, devices) call-choices.ts. States and modes are the host-page contract's.
import type { InitResponse, StartResponse, UnavailableReason } from '../../protocol/public.js';
import type { RatingBody } from '../../protocol/rating.js';
import { PalClientError, isAbort, toClientError } from './errors.js';
import { LinkHistoryEvent, type CanvasInteractionBody, type ConversationLink, type RoomTranscriptEntry } from './link.js';
import { forgetLiveCall, recallLiveCall, rememberLiveCall, type LiveCall } from './live-call.js';
import { unlockAudio } from './media.js';
import {
  SessionCanvasEvent,
  SessionChangeEvent,
  SessionErrorEvent,
  SessionLifecycleEvent,
  SessionModeEvent,
  SessionStateEvent,
  type SessionMode,
  type SessionState,
} from './session-events.js';
import { StartFlow } from './start-flow.js';
import { initError, unavailableCode, type GateStep } from './start-errors.js';
import { conversationIdFromUrl, defaultSettings, type SessionOptions, type SessionSettings } from './session-options.js';
import { loadCallEvents, loadTransports } from './call-code.js';
import { CallChoices } from './call-choices.js';
import type { TransportFactory } from './transport/select.js';
import type { Transport, TransportEndedEvent, TransportParticipant } from './transport/transport.js';

export type { GateStep } from './start-errors.js';
export type { SessionOptions, SessionSettings } from './session-options.js';

export class ConversationSession extends CallChoices implements ConversationLink {
  state: SessionState = 'idle';
  mode: SessionMode = 'idle';
  deployment: InitResponse | null = null;
  conversation: Pick<StartResponse, 'conversation_id' | 'conversation_url' | 'meeting_token' | 'face_rig_url'> | null = null;
  error: PalClientError | null = null;
  unavailableReason: UnavailableReason | 'captcha' | null = null;
  /** Set by dispose(); a disposed session is not reused. */
  disposed = false;

  readonly #options: SessionOptions;
  readonly #transportFactory: TransportFactory | null;
  #transport: Transport | null = null;
  readonly #flow: StartFlow;
  #abort = new AbortController();
  readonly #onPageHide = (): void => this.dispose();

  constructor(options: SessionOptions = {}) {
    super();
    this.#options = options;
    this.#transportFactory = options.transportFactory ?? null;
    this.#flow = new StartFlow(options, this, {
      signal: () => this.#abort.signal,
      settings: () => this.#settings,
      setState: (state) => this.#setState(state),
      setMode: (mode) => this.#setMode(mode),
      created: (conversation) => (this.conversation = conversation),
      connect: () => this.#connect(),
      dropTransport: () => this.#dropTransport(),
      unavailable: (reason) => this.#unavailable(reason),
      fail: (error, report) => this.#fail(error, report),
      changed: () => this.changed(),
      report: (error) => this.#report(error),
    });
  }

  get conversationId(): string {
    return this.conversation?.conversation_id ?? '';
  }

  get participants(): readonly TransportParticipant[] {
    return this.#transport?.participants ?? [];
  }

  /** The call is recorded (the room said so when it admitted the visitor). */
  get recording(): boolean {
    return this.#transport?.recording ?? false;
  }

  /** What was said before this page joined (a reload mid-call), as the room keeps it. */
  get history(): readonly RoomTranscriptEntry[] {
    return this.#transport?.history ?? [];
  }

  get transportKind(): Transport['kind'] | null {
    return this.#transport?.kind ?? null;
  }

  /** The gate's step on view (password, captcha), or null. */
  get gate(): GateStep | null {
    return this.#flow.gate.step;
  }

  /** Why the last gate attempt failed (code of the start endpoint), shown on the gate. */
  get gateError(): PalClientError | null {
    return this.#flow.gate.error;
  }

  /** The password step's answer is being checked with the service. */
  get gateChecking(): boolean {
    return this.#flow.gate.checking;
  }

  protected get callTransport(): Transport | null {
    return this.#transport;
  }

  get #settings(): SessionSettings {
    return (this.#options.settings ?? defaultSettings)();
  }

  /** Loads the deployment (GET init). Resolves in mode `idle` (preview) or `unavailable`; never rejects. */
  async initialize(): Promise<void> {
    const { api, deploymentId } = this.#options;
    if (!api || !deploymentId) return this.#fail(new PalClientError('no_deployment', 'No deployment id was given.'));
    this.error = null;
    this.unavailableReason = null;
    this.#setState('initializing');
    try {
      this.deployment = await api.init(deploymentId, this.#abort.signal);
    } catch (error) {
      if (!isAbort(error)) this.#fail(initError(toClientError(error, 'network_error'), deploymentId));
      return;
    }
    this.#setState('idle');
    if (this.deployment.is_available) {
      this.#setMode('idle');
      const live = recallLiveCall(deploymentId);
      if (live) this.#rejoin(live);
    } else {
      // The page hears why, with the code a refused start would have carried, before the mode changes.
      const reason = this.deployment.unavailable_reason ?? 'inactive';
      this.#report(new PalClientError(unavailableCode(reason), `The deployment is not available (${reason}).`));
      this.#unavailable(reason);
    }
    this.dispatchEvent(new SessionLifecycleEvent('ready', ''));
  }

  /**
   * The Start button: gate → device check → create → join; with `{ text: true }` in text mode, without the
   * device check. Idempotent; never rejects (errors are events).
   */
  startConversation(options: { text?: boolean } = {}): Promise<void> {
    unlockAudio();
    if (this.state === 'connected' || this.state === 'disconnecting') return Promise.resolve();
    if (!this.#flow.starting && !this.#flow.prepared) this.chooseStart(options.text ?? false);
    if (!this.#flow.starting) this.#listenForPageHide();
    return this.#flow.start();
  }

  /**
   * Fetches the code a call needs (transports, the call's events and their parser) ahead of join, which fetches it
   * otherwise. The elements call it once the preview is on view; idempotent.
   */
  prefetchCall(): void {
    if (!this.#transportFactory) void loadTransports().catch(() => undefined);
    void loadCallEvents().catch(() => undefined);
  }

  /** Creates the conversation without joining it; a later startConversation() joins it. */
  async createConversation(): Promise<{ conversationId: string }> {
    this.#listenForPageHide();
    try {
      await this.#flow.passGate();
      const created = await this.#flow.create();
      this.dispatchEvent(new SessionLifecycleEvent('created', created.conversation_id));
      return { conversationId: created.conversation_id };
    } catch (error) {
      const failure = toClientError(error, 'http_error');
      if (!isAbort(failure)) this.#report(failure);
      throw failure;
    }
  }

  /** After a reload: back into the call this tab was in, without the preview, gate or device check. */
  #rejoin(live: LiveCall): void {
    const deploymentId = this.#options.deploymentId!;
    this.conversation = live;
    this.#listenForPageHide();
    // The call ended meanwhile (or the room is gone): the visitor simply starts again.
    this.#flow.rejoin(() => {
      forgetLiveCall(deploymentId);
      this.#dropTransport();
      this.conversation = null;
    });
  }

  /** Joins a known room directly (pal-conversation without a deployment). Never rejects. */
  join(conversationUrl: string, meetingToken: string, conversationId = conversationIdFromUrl(conversationUrl)): Promise<void> {
    unlockAudio();
    if (this.state === 'connected' || this.state === 'disconnecting') return Promise.resolve();
    this.conversation = { conversation_id: conversationId, conversation_url: conversationUrl, meeting_token: meetingToken };
    this.#listenForPageHide();
    return this.#flow.join(this.#abort.signal);
  }

  /** The password step's answer, with the captcha token when the deployment has a captcha. */
  submitPassword(password: string, captchaToken?: string): void {
    this.#flow.gate.answerPassword(password, captchaToken);
    this.#flow.resume('password');
  }

  submitCaptcha(token: string): void {
    this.#flow.gate.answerCaptcha(token);
    this.#flow.resume('captcha');
  }

  /** The bot check could not run (script blocked, widget error): nothing a visitor can do here. */
  captchaUnavailable(): void {
    this.#flow.visitor.fail(new PalClientError('captcha_unavailable', 'The bot check could not run.'));
  }

  /** The device check's choice; `textMode` when the visitor goes on by text (no microphone). */
  confirmHaircheck(
    devices: { audioDeviceId?: string; videoDeviceId?: string; cameraOn?: boolean; microphoneOn?: boolean; textMode?: boolean } = {},
  ): void {
    unlockAudio();
    this.chooseDevices(devices);
    this.#flow.resume('haircheck');
  }

  /** Leaves a live call, or cancels a pending start / device check / prepared room. */
  async endConversation(): Promise<void> {
    const wasLive = this.state === 'connected';
    const transport = this.#transport;
    this.#cancelPending();
    if (wasLive && transport) {
      this.#setState('disconnecting');
      await transport.leave({ end: true }).catch(() => undefined);
      this.#endCall();
      return;
    }
    await transport?.leave().catch(() => undefined);
    this.#transport = null;
    this.conversation = null;
    this.#flow.prepared = false;
    this.#flow.gate.step = null;
    if (this.state !== 'error' && this.state !== 'ended') this.#setState('idle');
    if (this.mode === 'haircheck' || this.mode === 'call') this.#setMode('idle');
    this.changed();
  }

  /** "Try again" / "Start over": back to the preview (re-reading the deployment when there is one). */
  async retry(): Promise<void> {
    this.error = null;
    this.#flow.gate.error = null;
    this.conversation = null;
    this.#flow.prepared = false;
    this.deployment = null;
    if (this.#options.deploymentId) return this.initialize();
    this.#setState('idle');
    this.#setMode('idle');
  }

  /** Element removed or page hidden: drop everything without an ended event. */
  dispose(): void {
    this.disposed = true;
    this.#cancelPending();
    this.#dropTransport();
    this.#abort.abort();
    this.#abort = new AbortController();
    globalThis.removeEventListener?.('pagehide', this.#onPageHide);
  }

  send(message: { message_type?: string; event_type: string; conversation_id?: string; properties?: unknown }): void {
    if (this.state !== 'connected' || !this.#transport) throw new PalClientError('not_connected', 'There is no live conversation.');
    this.#transport.sendAppMessage({ message_type: 'conversation', conversation_id: this.conversationId, properties: {}, ...message });
  }

  async postCanvasInteraction(body: CanvasInteractionBody): Promise<void> {
    if (!this.#options.api) throw new PalClientError('no_deployment', 'No service address to record the interaction with.');
    await this.#options.api.postCanvasInteraction(this.conversationId, body);
    this.dispatchEvent(new SessionCanvasEvent(body));
  }

  /** Sends the visitor's rating of the conversation that just ended (once; the service answers 409 after). */
  async rate(rating: RatingBody): Promise<void> {
    const conversation = this.conversation;
    if (!this.#options.api || !conversation?.meeting_token) throw new PalClientError('not_connected', 'There is no conversation to rate.');
    await this.#options.api.rate(conversation.conversation_id, conversation.meeting_token, rating);
  }

  async #connect(): Promise<void> {
    const conversation = this.conversation;
    if (!conversation) throw new PalClientError('join_failed', 'No conversation to join.');
    this.#setState('connecting');
    const signal = this.#abort.signal;
    const [factory, listenToCall] = await Promise.all([this.#transportFactory ?? loadTransports(), loadCallEvents()]).catch(() => {
      throw new PalClientError('join_failed', 'Could not load the call.');
    });
    if (signal.aborted) throw new PalClientError('aborted', 'Cancelled.');
    const transport = factory(conversation.conversation_url);
    this.#transport = transport;
    listenToCall(transport, this, {
      changed: () => this.changed(),
      report: (error) => this.#report(error),
      ended: (event) => this.#remoteEnded(event),
    });
    await transport.join({
      url: conversation.conversation_url,
      token: conversation.meeting_token ?? '',
      ...this.joinMedia(this.#settings.cameraOn),
      // A trained face named by the start's answer loads while the page joins, not after the room names it.
      ...(conversation.face_rig_url ? { faceRigUrl: conversation.face_rig_url } : {}),
      ...(this.#settings.userName ? { userName: this.#settings.userName } : {}),
    });
    if (signal.aborted || this.#transport !== transport) {
      await transport.leave();
      throw new PalClientError('aborted', 'Cancelled.');
    }
    if (transport.history?.length) this.dispatchEvent(new LinkHistoryEvent(transport.history));
    this.cameraOn = this.cameraOn && this.#settings.cameraOn;
    this.#flow.prepared = false;
    this.#setState('connected');
    this.#setMode('call');
    if (this.#options.deploymentId) rememberLiveCall(this.#options.deploymentId, conversation);
    this.dispatchEvent(new SessionLifecycleEvent('started', conversation.conversation_id));
  }

  #dropTransport(): void {
    void this.#transport?.leave().catch(() => undefined);
    this.#transport = null;
  }

  #remoteEnded(event: TransportEndedEvent): void {
    if (this.state !== 'connected') return;
    this.#transport = null;
    if (event.failed) {
      const error = new PalClientError('connection_lost', 'The connection to the conversation was lost.');
      this.#report(error);
    }
    this.#endCall();
  }

  #endCall(): void {
    const id = this.conversationId;
    if (this.#options.deploymentId) forgetLiveCall(this.#options.deploymentId);
    this.#transport = null;
    this.#setState('ended');
    this.#setMode('ended');
    this.dispatchEvent(new SessionLifecycleEvent('ended', id));
  }

  #cancelPending(): void {
    this.#flow.visitor.cancel();
    if (this.#flow.creating || this.state === 'connecting') {
      this.#abort.abort();
      this.#abort = new AbortController();
    }
  }

  #listenForPageHide(): void {
    globalThis.addEventListener?.('pagehide', this.#onPageHide);
  }

  #unavailable(reason: UnavailableReason | 'captcha'): void {
    this.unavailableReason = reason;
    this.#setMode('unavailable');
  }

  #fail(error: PalClientError, report = true): void {
    this.error = error;
    if (report) this.#report(error);
    this.#setState('error');
    if (this.mode !== 'idle') this.#setMode('idle');
    this.changed();
  }

  #report(error: PalClientError): void {
    this.dispatchEvent(new SessionErrorEvent(error));
  }

  #setState(state: SessionState): void {
    if (state === this.state) return;
    const previous = this.state;
    this.state = state;
    this.dispatchEvent(new SessionStateEvent(state, previous));
    this.changed();
  }

  #setMode(mode: SessionMode): void {
    if (mode === this.mode) return;
    const previous = this.mode;
    this.mode = mode;
    this.dispatchEvent(new SessionModeEvent(mode, previous));
    this.changed();
  }

  protected changed(): void {
    this.dispatchEvent(new SessionChangeEvent());
  }
}
