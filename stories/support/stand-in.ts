// The stand-in session behind every story: deployments answered from memory (no service), a room
// transport that plays a scripted PAL (no WebRTC, no WebSocket), and a link for the in-call parts.
// A story registers a scenario under a deployment id and mounts an element with that id.
import { LinkMessageEvent, type CanvasInteractionBody, type ConversationLink } from '../../src/palkit/client/link.js';
import type { JoinOptions, TransportParticipant } from '../../src/palkit/client/transport/transport.js';
import { PalDeploymentElement } from '../../src/palkit/components/shared/deployment-element.js';
import type { Customization, InitResponse } from '../../src/protocol/public.js';
import { initBody, startBody } from './endpoints.js';
import { syntheticAudioTrack, syntheticVideoTrack } from './media.js';
import { StandInTransport } from './transport.js';

/** One room message from the PAL, `after` milliseconds after the previous one. */
export interface ScriptStep {
  after: number;
  message: Record<string, unknown>;
}

export interface Scenario {
  init?: Partial<InitResponse>;
  /** Answer of `/init` other than 200 (e.g. 404 deployment_not_found), or 'offline' to fail the request. */
  initError?: { status: number; error: string } | 'offline';
  /** Answer of `/start` other than 200, e.g. `{status: 403, error: 'origin_not_allowed'}`. */
  startError?: { status: number; error: string };
  /** Keep the join pending (the connecting screen). */
  holdJoin?: boolean;
  /** What the PAL says and shows once joined. */
  script?: ScriptStep[];
}

const scenarios = new Map<string, Scenario>();
const roomHost = 'http://stand-in.palkit.invalid';

/** Registers a scenario; returns the deployment id to give the element. */
export function standInDeployment(id: string, scenario: Scenario = {}): string {
  scenarios.set(id, scenario);
  return id;
}

/** A drawn face for previews and the stage (an inline SVG, nothing fetched). */
export const faceImage = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 480"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#28425e"/><stop offset="1" stop-color="#141c2b"/></linearGradient></defs><rect width="640" height="480" fill="url(#g)"/><ellipse cx="320" cy="210" rx="95" ry="120" fill="#c9d6e6"/><rect x="210" y="360" width="220" height="140" rx="40" fill="#c9d6e6"/><rect x="280" y="190" width="18" height="12" fill="#1d2430"/><rect x="342" y="190" width="18" height="12" fill="#1d2430"/><rect x="295" y="262" width="50" height="8" rx="4" fill="#1d2430"/></svg>`,
)}`;

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The public deployment endpoints, answered from the registered scenarios. */
export const standInFetch: typeof fetch = async (input, init) => {
  const url = new URL(String(input instanceof Request ? input.url : input), location.href);
  const deployment = url.pathname.match(/\/v2\/deployments\/([^/]+)\/(init|gate|start)$/);
  if (deployment) {
    const id = decodeURIComponent(deployment[1]!);
    const scenario = scenarios.get(id);
    if (!scenario) return json(404, { error: 'deployment_not_found' });
    if (deployment[2] === 'init') {
      if (scenario.initError === 'offline') throw new TypeError('Failed to fetch (stand-in offline)');
      if (scenario.initError) return json(scenario.initError.status, { error: scenario.initError.error });
      return json(200, initBody({ deployment_id: id, channel: 'embed', thumbnail_image_url: faceImage, ...scenario.init }));
    }
    const body = JSON.parse(String(init?.body ?? '{}')) as { password?: string; gate_pass?: string };
    // The password ("palkit") is checked at the gate; its pass starts the call.
    if (deployment[2] === 'gate')
      return body.password === 'palkit'
        ? json(200, { gate_pass: 'stand-in-pass', expires_at: new Date(Date.now() + 900_000).toISOString() })
        : json(403, { error: 'invalid_password' });
    if (scenario.init?.has_password && body.gate_pass !== 'stand-in-pass') return json(403, { error: 'password_required' });
    if (scenario.startError) return json(scenario.startError.status, { error: scenario.startError.error });
    return json(
      200,
      startBody({
        conversation_id: `c_${id}`,
        conversation_name: 'Story visitor',
        conversation_url: `${roomHost}/rooms/${encodeURIComponent(id)}`,
        created_at: new Date().toISOString(),
        meeting_token: 'stand-in',
      }),
    );
  }
  if (/\/v2\/conversations\/[^/]+\/canvas\/interactions$/.test(url.pathname)) return json(200, { success: true });
  return json(404, { error: 'not_found' });
};

/** A room with a scripted PAL: synthetic video, messages from the scenario's script. */
export class StandInRoom extends StandInTransport {
  #participants: TransportParticipant[] = [];
  #timers: ReturnType<typeof setTimeout>[] = [];
  #tracks: MediaStreamTrack[] = [];
  readonly #scenario: Scenario;
  readonly #conversationId: string;

  constructor(conversationUrl: string) {
    super();
    const id = decodeURIComponent(new URL(conversationUrl).pathname.split('/').pop() ?? '');
    this.#scenario = scenarios.get(id) ?? {};
    this.#conversationId = `c_${id}`;
    this.holdJoin = this.#scenario.holdJoin === true;
  }

  override get participants(): readonly TransportParticipant[] {
    return this.#participants;
  }

  protected override admitted(options: JoinOptions): void {
    if (this.left) return;
    const pal = syntheticVideoTrack('Nova (stand-in)');
    const self = options.startVideo ? syntheticVideoTrack('You', 150) : null;
    const mic = options.startAudio ? syntheticAudioTrack() : null;
    this.#tracks = [pal, ...(self ? [self] : []), ...(mic ? [mic] : [])];
    this.#participants = [
      { id: 'pal', name: 'Nova', role: 'pal', local: false, videoTrack: pal, audioTrack: null },
      { id: 'me', name: options.userName ?? 'You', role: 'visitor', local: true, videoTrack: self, audioTrack: mic },
    ];
    let at = 0;
    for (const step of this.#scenario.script ?? []) {
      at += step.after;
      this.#timers.push(setTimeout(() => this.deliver(step.message), at));
    }
  }

  /** Deliver one `conversation.*` message from the PAL. */
  deliver(message: Record<string, unknown>): void {
    this.receive({ message_type: 'conversation', conversation_id: this.#conversationId, ...message });
  }

  override async leave(): Promise<void> {
    this.#timers.forEach(clearTimeout);
    this.#tracks.forEach((track) => track.stop());
    this.#participants = [];
    await super.leave();
  }

  /** The room closes from the PAL's side. */
  end(): void {
    void this.leave();
    this.endFromRoom();
  }
}

/** Routes every deployment element in the Storybook to the stand-ins. */
export function installStandInSession(): void {
  PalDeploymentElement.fetchImpl = standInFetch;
  PalDeploymentElement.transportFactory = (url) => new StandInRoom(url);
}

/** A conversation link for an in-call part on its own: scripted messages in, sends and posts recorded. */
export class StandInLink extends EventTarget implements ConversationLink {
  readonly conversationId = 'c_story';
  readonly sent: unknown[] = [];
  readonly posted: CanvasInteractionBody[] = [];

  send(message: Parameters<ConversationLink['send']>[0]): void {
    this.sent.push(message);
    const text = (message as { properties?: { text?: unknown } }).properties?.text;
    // The stand-in PAL acknowledges chat lines, so the transcript shows both sides.
    if (typeof text === 'string')
      setTimeout(() => this.event('conversation.utterance', { role: 'replica', speech: `You said: “${text}”.` }), 400);
  }

  async postCanvasInteraction(body: CanvasInteractionBody): Promise<void> {
    this.posted.push(body);
  }

  event(eventType: string, properties: Record<string, unknown> = {}): void {
    this.dispatchEvent(
      new LinkMessageEvent({ message_type: 'conversation', event_type: eventType, conversation_id: this.conversationId, properties }),
    );
  }

  /** Plays steps like a room script. */
  play(steps: ScriptStep[]): void {
    let at = 0;
    for (const step of steps) {
      at += step.after;
      setTimeout(() => this.event(String(step.message.event_type), (step.message.properties ?? {}) as Record<string, unknown>), at);
    }
  }
}

// ---- script helpers --------------------------------------------------------------------------------

export const say = (speech: string, role: 'replica' | 'user' = 'replica', after = 600): ScriptStep => ({
  after,
  message: { event_type: 'conversation.utterance', properties: { role, speech } },
});

export const disclose = (
  state: 'delivering' | 'delivered',
  visual = 'You are talking with Nova, an AI assistant. Conversations may be recorded to improve the service.',
  after = 200,
): ScriptStep => ({
  after,
  message: { event_type: 'conversation.disclosure', properties: { visual_disclosure: visual, verbal_disclosure: visual, state } },
});

export const showCard = (component: string, args: Record<string, unknown>, toolCallId = `tc_${component}`, after = 300): ScriptStep => ({
  after,
  message: {
    event_type: 'conversation.tool_call',
    properties: { name: `canvas_show_${component}`, arguments: JSON.stringify(args), tool_call_id: toolCallId },
  },
});

/** `override-config` for a theme. */
export const themeConfig = (c: Partial<Customization>): string => JSON.stringify(c);
