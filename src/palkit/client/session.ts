// The conversation session: one state machine from deployment init to the end of a call. It owns the API
// calls, the gate (password, captcha), the device check, the transport, and implements ConversationLink
// for the in-call parts; the visitor's choices (microphone, camera, text, devices) are call-choices.ts.
// States and modes are the host-page contract's.
import type { InitResponse, StartBody, StartResponse, UnavailableReason } from '../../protocol/public.js';
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
import { SessionGate } from './session-gate.js';
import { startOutcome, unavailableCode, type GateStep } from './start-errors.js';
import { VisitorStep, type VisitorStepName } from './visitor-step.js';
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
  readonly #visitor = new VisitorStep();
  readonly #gate = new SessionGate(this.#visitor, { changed: () => this.changed(), report: (error) => this.#report(error) });
  #starting: Promise<void> | null = null;
  #creating: Promise<StartResponse> | null = null;
  #abort = new AbortController();
  #prepared = false;
  readonly #onPageHide = (): void => this.dispose();

  constructor(options: SessionOptions = {}) {
    super();
    this.#options = options;
    this.#transportFactory = options.transportFactory ?? null;
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
    return this.#gate.step;
  }

  /** Why the last gate attempt failed (code of the start endpoint), shown on the gate. */
  get gateError(): PalClientError | null {
    return this.#gate.error;
  }

  /** The password step's answer is being checked with the service. */
  get gateChecking(): boolean {
    return this.#gate.checking;
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
    if (!this.#starting && !this.#prepared) {
      // Each start chooses afresh: text (no camera either, so no device prompt at all) or voice.
      if (options.text) {
        this.enterTextMode();
        this.cameraOn = false;
      } else if (this.textMode) {
        this.textMode = false;
        this.microphoneOn = true;
        this.cameraOn = true;
      }
    }
    this.#starting ??= this.#start().finally(() => (this.#starting = null));
    return this.#starting;
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
      await this.#passGate();
      const created = await this.#create();
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
    this.#prepared = true;
    this.#listenForPageHide();
    this.#starting = this.#connect()
      .catch((error) => {
        if (this.#abort.signal.aborted || isAbort(toClientError(error))) return;
        // The call ended meanwhile (or the room is gone): the visitor simply starts again.
        forgetLiveCall(deploymentId);
        void this.#transport?.leave().catch(() => undefined);
        this.#transport = null;
        this.conversation = null;
        this.#prepared = false;
        this.#setState('idle');
        this.#setMode('idle');
      })
      .finally(() => (this.#starting = null));
  }

  /** Joins a known room directly (pal-conversation without a deployment). Never rejects. */
  join(conversationUrl: string, meetingToken: string, conversationId = conversationIdFromUrl(conversationUrl)): Promise<void> {
    unlockAudio();
    if (this.state === 'connected' || this.state === 'disconnecting') return Promise.resolve();
    this.conversation = { conversation_id: conversationId, conversation_url: conversationUrl, meeting_token: meetingToken };
    this.#prepared = true;
    const signal = this.#abort.signal;
    this.#listenForPageHide();
    this.#starting ??= this.#connect()
      .catch((error) => void (signal.aborted || this.#handleStartError(error)))
      .finally(() => (this.#starting = null));
    return this.#starting;
  }

  /** The password step's answer, with the captcha token when the deployment has a captcha. */
  submitPassword(password: string, captchaToken?: string): void {
    this.#gate.answerPassword(password, captchaToken);
    this.#resume('password');
  }

  submitCaptcha(token: string): void {
    this.#gate.answerCaptcha(token);
    this.#resume('captcha');
  }

  /** The bot check could not run (script blocked, widget error): nothing a visitor can do here. */
  captchaUnavailable(): void {
    this.#visitor.fail(new PalClientError('captcha_unavailable', 'The bot check could not run.'));
  }

  /** The device check's choice; `textMode` when the visitor goes on by text (no microphone). */
  confirmHaircheck(
    devices: { audioDeviceId?: string; videoDeviceId?: string; cameraOn?: boolean; microphoneOn?: boolean; textMode?: boolean } = {},
  ): void {
    unlockAudio();
    this.chooseDevices(devices);
    this.#resume('haircheck');
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
    this.#prepared = false;
    this.#gate.step = null;
    if (this.state !== 'error' && this.state !== 'ended') this.#setState('idle');
    if (this.mode === 'haircheck' || this.mode === 'call') this.#setMode('idle');
    this.changed();
  }

  /** "Try again" / "Start over": back to the preview (re-reading the deployment when there is one). */
  async retry(): Promise<void> {
    this.error = null;
    this.#gate.error = null;
    this.conversation = null;
    this.#prepared = false;
    this.deployment = null;
    if (this.#options.deploymentId) return this.initialize();
    this.#setState('idle');
    this.#setMode('idle');
  }

  /** Element removed or page hidden: drop everything without an ended event. */
  dispose(): void {
    this.disposed = true;
    this.#cancelPending();
    void this.#transport?.leave().catch(() => undefined);
    this.#transport = null;
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

  async #start(): Promise<void> {
    this.#listenForPageHide();
    const signal = this.#abort.signal;
    // Each pass runs the flow once; a wrong password or failed captcha sends the visitor back to the gate.
    for (;;) {
      try {
        if (!this.deployment && this.#options.deploymentId) await this.initialize();
        if (this.mode === 'unavailable' || !this.deployment) return;
        if (this.mode === 'ended') this.#setMode('idle');
        if (!this.#prepared) await this.#passGate();
        if (this.#settings.showHaircheck && !this.#prepared && !this.textMode) {
          this.#setMode('haircheck');
          await this.#visitor.waitFor('haircheck');
        }
        if (!this.#prepared) {
          this.#setState('connecting');
          await (this.#creating ?? this.#create());
        }
        await this.#connect();
        return;
      } catch (error) {
        if (signal.aborted || this.#handleStartError(error) === 'stop') return;
      }
    }
  }

  #passGate(): Promise<void> {
    const { api, deploymentId } = this.#options;
    return this.#gate.pass(this.deployment, (body) => {
      if (!api || !deploymentId) throw new PalClientError('no_deployment', 'No deployment id was given.');
      return api.passGate(deploymentId, body, this.#abort.signal);
    });
  }

  #create(): Promise<StartResponse> {
    const { api, deploymentId } = this.#options;
    if (!api || !deploymentId) return Promise.reject(new PalClientError('no_deployment', 'No deployment id was given.'));
    const body: StartBody = { ...this.#settings.startBody(), ...this.#gate.takeStartFields() };
    this.#creating = api
      .start(deploymentId, body, this.#abort.signal)
      .then((created) => {
        this.conversation = created;
        this.#prepared = true;
        return created;
      })
      .finally(() => (this.#creating = null));
    return this.#creating;
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
      startVideo: this.cameraOn && this.#settings.cameraOn,
      startAudio: this.microphoneOn && !this.textMode,
      textMode: this.textMode,
      // A trained face named by the start's answer loads while the page joins, not after the room names it.
      ...(conversation.face_rig_url ? { faceRigUrl: conversation.face_rig_url } : {}),
      ...(this.#settings.userName ? { userName: this.#settings.userName } : {}),
      ...(this.audioDeviceId ? { audioDeviceId: this.audioDeviceId } : {}),
      ...(this.videoDeviceId ? { videoDeviceId: this.videoDeviceId } : {}),
    });
    if (signal.aborted || this.#transport !== transport) {
      await transport.leave();
      throw new PalClientError('aborted', 'Cancelled.');
    }
    if (transport.history?.length) this.dispatchEvent(new LinkHistoryEvent(transport.history));
    this.cameraOn = this.cameraOn && this.#settings.cameraOn;
    this.#prepared = false;
    this.#setState('connected');
    this.#setMode('call');
    if (this.#options.deploymentId) rememberLiveCall(this.#options.deploymentId, conversation);
    this.dispatchEvent(new SessionLifecycleEvent('started', conversation.conversation_id));
  }

  /** Shows what went wrong; 'retry' when the visitor is back at the gate and the flow continues. */
  #handleStartError(raw: unknown): 'retry' | 'stop' {
    const error = toClientError(raw);
    if (isAbort(error)) return 'stop';
    void this.#transport?.leave().catch(() => undefined);
    this.#transport = null;
    const outcome = startOutcome(error.code);
    this.#report(error);
    if (outcome.kind === 'gate' && this.deployment) {
      // The pass ran out (or the password changed): the visitor enters it again.
      if (outcome.step === 'password') this.#gate.forgetPass();
      this.#gate.error = error;
      this.#setState('idle');
      this.#setMode('idle');
      return 'retry';
    }
    this.#prepared = false;
    if (outcome.kind === 'unavailable') {
      this.#setState('error');
      this.#unavailable(outcome.reason);
    } else {
      this.#fail(error, false);
    }
    return 'stop';
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

  #resume(step: VisitorStepName): void {
    if (this.#visitor.resume(step) && step !== 'haircheck') this.#gate.error = null;
  }

  #cancelPending(): void {
    this.#visitor.cancel();
    if (this.#creating || this.state === 'connecting') {
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

/** A 400 on init is the page's mistake, not the service's: the deployment id is malformed, and a retry cannot help. */
function initError(error: PalClientError, deploymentId: string): PalClientError {
  if (error.status !== 400) return error;
  return new PalClientError('invalid_deployment_id', `deployment-id "${deploymentId.slice(0, 80)}" is malformed (${error.message}).`, 400);
}
