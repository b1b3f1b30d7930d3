// What the widget, embed and landing page share: the deployment attributes, the session that runs the
// flow, the host-page methods, and the merged configuration. Each shell only adds its own surface.
import { CustomizationStyles } from '../controllers/customization-styles.js';
import { LitElement } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ApiClient } from '../../client/api.js';
import { PalClientError } from '../../client/errors.js';
import { withPrefetched, type Prefetched } from '../../client/prefetched.js';
import { ConversationSession, type SessionSettings } from '../../client/session.js';
import type { SessionMode, SessionState } from '../../client/session-events.js';
import type { TransportFactory } from '../../client/transport/select.js';
import type { Customization } from '../../../protocol/public.js';
import { SessionController } from '../controllers/session-controller.js';
import { PalErrorEvent } from '../events/error.js';
import { languageOf, translatorFor, type Translate } from '../i18n/strings.js';
import { deepMerge, parseOverrideConfig } from './config.js';
import { toOutgoing, type OutgoingMessage } from './messages.js';
import { ScreenFocusController } from './screen-focus.js';

/** The call's parts (conversation, stage, controls, transcript, canvas, the after-call screen), fetched once, again after a failure. */
let callParts: Promise<void> | null = null;
const loadCallParts = (): Promise<void> =>
  (callParts ??= import('../define-call.js').then(
    (m) => m.defineCallParts(),
    (error: unknown) => {
      callParts = null;
      throw error;
    },
  ));

/** What says a visitor is about to use the element (issue 54: the call's code is fetched then, not on load). */
const INTENT = ['pointerover', 'pointerdown', 'touchstart', 'focusin'] as const;

/** Where the service is when `api-base` is not given: the origin this code was loaded from. */
export const defaultApiBase = { value: typeof location === 'undefined' ? '' : new URL(import.meta.url, location.href).origin };

export abstract class PalDeploymentElement extends LitElement {
  /** Deployment whose configuration is loaded from `/v2/deployments/{id}/init`. */
  @property({ attribute: 'deployment-id', reflect: true }) deploymentId = '';
  /** Service address; defaults to the origin the script came from. */
  @property({ attribute: 'api-base' }) apiBase = '';
  /** Extra context for the PAL, read when the conversation is created. */
  @property({ attribute: 'conversational-context' }) conversationalContext = '';
  /** Opening line for this conversation, read when the conversation is created. */
  @property({ attribute: 'custom-greeting' }) customGreeting = '';
  /** Comma-separated visitor identifiers (a stable per-visitor id gives the PAL memory across visits); they count only with `visitor-token`. */
  @property({ attribute: 'memory-stores' }) memoryStores = '';
  /** Your backend's signed word for who the visitor is (an HS256 JWT made with the deployment's visitor_token_secret; docs/embedding.md). */
  @property({ attribute: 'visitor-token' }) visitorToken = '';
  /** JSON deep-merged over the deployment's `customization`. */
  @property({ attribute: 'override-config' }) overrideConfig = '';
  /** UI language (`en`, `de`, `es`, `fr`, `ja`; others fall back to English). Empty: the nearest `lang` around the element, else the page's. */
  @property({ reflect: true }) override lang = '';
  /** Visitor's display name in the room. */
  @property({ attribute: 'user-name' }) userName = '';
  /** Reflects the customization theme so the dark tokens apply. */
  @property({ reflect: true }) theme: 'light' | 'dark' | 'auto' | null = null;
  @state() private patches: Partial<Customization> = {};
  /** The element's own attributes cannot work (no deployment-id, an api-base that is no address). */
  @state() private misconfiguration: PalClientError | null = null;

  /** Tests and custom hosts may swap the network boundary. */
  static fetchImpl: typeof fetch | undefined;
  static transportFactory: TransportFactory | undefined;

  /** The init the script tag's shell already fetched for this element; used instead of a second request. */
  prefetchedInit: Prefetched | null = null;

  protected readonly sessionController = new SessionController(this, { emit: true, deploymentId: () => this.deploymentId });
  protected readonly screenFocus = new ScreenFocusController(this);
  /** The deployment's customization as an adopted stylesheet (strict-CSP pages refuse a rendered <style>). */
  protected readonly customizationStyles = new CustomizationStyles(this);

  get session(): ConversationSession | null {
    return this.sessionController.session;
  }

  /** One of `idle, initializing, connecting, connected, disconnecting, ended, error`. */
  get state(): SessionState {
    return this.session?.state ?? 'idle';
  }

  /** One of `idle, haircheck, call, ended, unavailable`. */
  get mode(): SessionMode {
    return this.session?.mode ?? 'idle';
  }

  /** The deployment's customization with `override-config` and `updateConfig()` patches merged over it. */
  get config(): Customization {
    const base = (this.session?.deployment?.customization ?? {}) as Customization;
    return deepMerge(deepMerge(base, parseOverrideConfig(this.overrideConfig)), this.patches);
  }

  get t(): Translate {
    return translatorFor(this, languageOf(this), this.config.strings);
  }

  /** Why the element cannot run with its attributes, or null. Shown as the error screen. */
  get attributeProblem(): PalClientError | null {
    return this.misconfiguration;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('deploymentId') || changed.has('apiBase')) this.#ensureSession();
    if (changed.has('overrideConfig') && this.overrideConfig.trim() && !parseOverrideConfig(this.overrideConfig)) {
      this.#report(
        new PalClientError('invalid_attribute', "override-config is not a JSON object; the deployment's own configuration is used."),
      );
    }
    this.theme = this.config.theme ?? this.theme;
  }

  /** Resolves once the call's parts (conversation, end-call question, after-call screen) are defined. */
  protected callParts(): Promise<void> {
    return loadCallParts();
  }

  /** The deployment's screens are on view (the widget: its popup is open). */
  protected get flowShown(): boolean {
    return true;
  }

  /**
   * The visitor is about to start a call: the pointer is over the element, a finger on it or the focus in it
   * (set by #onIntent), or a step after the preview is on. The widget: its popup is open.
   */
  protected get callWanted(): boolean {
    const session = this.session;
    return this.#intent || (session !== null && (session.mode !== 'idle' || session.gate !== null || session.state === 'connecting'));
  }

  #intent = false;
  readonly #onIntent = (): void => {
    for (const type of INTENT) this.removeEventListener(type, this.#onIntent);
    this.#intent = true;
    this.#prefetchCall();
  };

  override updated(changed: Map<string, unknown>): void {
    super.updated(changed);
    this.#prefetchCall();
  }

  /**
   * Once the visitor shows they are about to start (callWanted), the call's code arrives while they are on the
   * preview, gate or device check: joining never waits for it, and a page where nobody reaches for the PAL
   * never fetches it.
   */
  #prefetchCall(): void {
    if (this.flowShown && this.session?.deployment?.is_available && this.callWanted) {
      this.session.prefetchCall();
      void loadCallParts().catch(() => undefined);
    }
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.#intent) for (const type of INTENT) this.addEventListener(type, this.#onIntent, { passive: true });
    this.#ensureSession();
    // Frameworks may set deployment-id just after connecting: judge its absence once they have had their turn.
    setTimeout(() => {
      if (this.isConnected && !this.deploymentId && !this.session && !this.misconfiguration) {
        this.#misconfigured(new PalClientError('no_deployment', 'The element has no deployment-id attribute.'));
      }
    });
  }

  /** Same path as the Start button (`{ text: true }`: the "Chat by text" button). Idempotent; never rejects (failures are `pal-error`). */
  startConversation(options: { text?: boolean } = {}): Promise<void> {
    const session = this.#require();
    return session ? session.startConversation(options) : Promise.resolve();
  }

  /** Creates the conversation without joining it; resolves `{conversationId}`, rejects on failure. */
  createConversation(): Promise<{ conversationId: string }> {
    const session = this.#require();
    return session ? session.createConversation() : Promise.reject(new PalClientError('no_deployment', 'No deployment-id.'));
  }

  /** Leaves a live call, or cancels a pending start or device check. */
  async endConversation(): Promise<void> {
    await this.session?.endConversation();
  }

  /** Sends an interactions-protocol event; a string is sent as `conversation.respond`. Only during a call. */
  sendMessage(event: string | OutgoingMessage): void {
    try {
      if (!this.session) throw new PalClientError('not_connected', 'There is no live conversation.');
      this.session.send(toOutgoing(event));
    } catch (error) {
      const e = error instanceof PalClientError ? error : new PalClientError('not_connected', String(error));
      this.#report(e);
    }
  }

  /** Sends text as the visitor. */
  sendChat(text: string): void {
    this.sendMessage(text);
  }

  /** Same shape as `override-config`; deep-merged over the current configuration. */
  updateConfig(patch: Partial<Customization>): void {
    this.patches = deepMerge(this.patches as Record<string, unknown>, patch as Record<string, unknown>);
  }

  /** The consent text the visitor accepted on the preview (internal; sent with the start). */
  acceptedTerms: string | undefined;

  protected settings(): SessionSettings {
    const config = this.config;
    const stores = this.memoryStores
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    return {
      showHaircheck: config.show_haircheck ?? true,
      cameraOn: config.camera_on ?? true,
      ...(this.userName ? { userName: this.userName } : {}),
      startBody: () => ({
        ...(this.conversationalContext ? { conversational_context: this.conversationalContext } : {}),
        ...(this.customGreeting ? { custom_greeting: this.customGreeting } : {}),
        ...(stores.length ? { memory_stores: stores } : {}),
        ...(this.visitorToken ? { visitor_token: this.visitorToken } : {}),
        ...(this.acceptedTerms !== undefined ? { accepted_terms: this.acceptedTerms } : {}),
      }),
    };
  }

  #sessionKey = '';

  /** One session per deployment and service; a new one after the element was removed and re-added. */
  #ensureSession(): void {
    const key = `${this.deploymentId}|${this.apiBase}`;
    if (!this.deploymentId || (key === this.#sessionKey && this.session && !this.session.disposed)) return;
    if (this.apiBase && !isServiceAddress(this.apiBase)) {
      this.#sessionKey = '';
      this.sessionController.attach(null, true);
      this.#misconfigured(
        new PalClientError('invalid_attribute', `api-base must be an absolute http(s) address, not "${this.apiBase.slice(0, 80)}".`),
      );
      return;
    }
    this.misconfiguration = null;
    this.#sessionKey = key;
    const ctor = this.constructor as typeof PalDeploymentElement;
    const fetchImpl = ctor.fetchImpl ?? ((input, init) => globalThis.fetch(input, init));
    const api = new ApiClient({ apiBase: this.apiBase || defaultApiBase.value, fetch: withPrefetched(fetchImpl, this.prefetchedInit) });
    this.prefetchedInit = null;
    const session = new ConversationSession({
      api,
      deploymentId: this.deploymentId,
      settings: () => this.settings(),
      ...(ctor.transportFactory ? { transportFactory: ctor.transportFactory } : {}),
    });
    this.sessionController.attach(session, true);
    void session.initialize();
  }

  #misconfigured(problem: PalClientError): void {
    this.misconfiguration = problem;
    this.#report(problem);
  }

  #report(problem: PalClientError): void {
    this.dispatchEvent(new PalErrorEvent({ code: problem.code, message: problem.message }));
  }

  #require(): ConversationSession | null {
    if (this.session) return this.session;
    this.#report(new PalClientError('no_deployment', 'Set deployment-id first.'));
    return null;
  }
}

function isServiceAddress(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}
