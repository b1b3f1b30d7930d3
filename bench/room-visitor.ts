// One simulated visitor in a local room, over the room protocol on a WebSocket: it joins, keeps its
// microphone open (silence, as a real one sends), waits for the greeting, then speaks its question a few
// times, each after the PAL's reply has ended and a pause. It measures what it hears as the page would
// (see playout.ts): from the end of its speech to the PAL's first audible sample played, and the PAL's
// slices that came late.
import WebSocket from 'ws';
import { decodeAudioFrame, roomSocketUrl, AudioFrameKind } from '../src/protocol/room.js';
import type { MicClock, Microphone } from './mic-clock.js';
import { Playout } from './playout.js';
import { MIC_FRAME_MS, SILENT_MIC_FRAME, type SpokenTurn } from './spoken-turn.js';

export interface VisitorOptions {
  turns: number;
  /** Before the first turn: a random wait up to this long, so that visitors do not all speak at once. */
  staggerMs: number;
  /** Between the PAL's reply and the next question. */
  pauseMs: { min: number; max: number };
  /** A question not answered (no audible reply) within this long counts as unanswered. */
  replyTimeoutMs: number;
  /** Fetch the PAL's face rig when it has one (rig.json, its idle loop and mouth sheets), as the elements do. */
  fetchFace?: boolean;
}

/** What a visitor fetched of the PAL's trained face: the rig's files as the elements load them. */
export interface FaceFetch {
  bytes: number;
  files: number;
  /** Each file's Cache-Control, as served. */
  cacheControl: string[];
}

/** Where a heard latency went, ms from the end of the visitor's speech to each mark's arrival here. */
export interface TurnStages {
  /** The service's end-of-turn mark (conversation.user.stopped_speaking): voice activity's pause. */
  turnEnded: number;
  /** The transcribed words (conversation.utterance, role user): transcription. */
  transcribed: number;
  /** The reply began (conversation.replica.started_speaking): answer and first synthesis. */
  replyStarted: number;
  /** The first audible PAL sample played (as heardMs). */
  heard: number;
}

export interface VisitorFigures {
  /** Per answered turn: end of the visitor's speech → the PAL's first audible sample played. */
  heardMs: number[];
  /** The same turns, by stage. */
  stages: TurnStages[];
  unanswered: number;
  palSlices: number;
  lateSlices: number;
  /** The PAL's face rig as this visitor fetched it (null: the PAL had none, or fetchFace was off). */
  face?: FaceFetch | null;
}

type Waiter = { resolve: () => void; timer: NodeJS.Timeout };

export class SimulatedVisitor implements Microphone {
  readonly figures: VisitorFigures = { heardMs: [], stages: [], unanswered: 0, palSlices: 0, lateSlices: 0 };
  /** Marks of the turn being answered, ms after the end of the visitor's speech. */
  private marks: Partial<TurnStages> = {};
  private socket: WebSocket | null = null;
  private readonly playout = new Playout();
  /** The frame index at which the current question's speech begins, while it is being spoken. */
  private speakingFrom: number | null = null;
  /** The next frame the microphone sends begins the question. */
  private speakNext = false;
  private spoken: Waiter | null = null;
  /** The end of the visitor's speech, while the PAL's reply has not been heard yet. */
  private speechEndedAt: number | null = null;
  private replied: Waiter | null = null;
  private heard: Waiter | null = null;
  private faceLoad: Promise<FaceFetch> | null = null;

  constructor(
    private readonly clock: MicClock,
    private readonly turn: SpokenTurn,
    private readonly options: VisitorOptions,
  ) {}

  async run(conversationUrl: string, meetingToken: string): Promise<VisitorFigures> {
    const socket = new WebSocket(roomSocketUrl(conversationUrl));
    this.socket = socket;
    const joined = new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.on('message', (data, isBinary) => {
        if (isBinary) return this.onAudio(data as Buffer);
        const frame = JSON.parse(data.toString()) as {
          type: string;
          data?: { event_type?: string; properties?: { role?: string } };
          participants?: Array<{ role?: string; face_rig_url?: string }>;
          participant?: { role?: string; face_rig_url?: string };
        };
        const rigUrl = [...(frame.participants ?? []), ...(frame.participant ? [frame.participant] : [])].find(
          (p) => p.role === 'pal',
        )?.face_rig_url;
        if (rigUrl && this.options.fetchFace && !this.faceLoad) {
          this.faceLoad = fetchRig(rigUrl);
          this.faceLoad.catch(() => undefined); // awaited (and so reported) when the visitor is done
        }
        if (frame.type === 'joined') resolve();
        else if (frame.type === 'audio-flush') this.playout.flush();
        else if (frame.type === 'app-message') this.onEvent(frame.data?.event_type, frame.data?.properties?.role);
      });
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    const greeted = this.waitFor('replied', 20_000);
    greeted.catch(() => undefined); // awaited after the join; a timeout before that is handled there
    socket.send(JSON.stringify({ type: 'join', meeting_token: meetingToken, user_name: 'Bench visitor' }));
    await joined;
    this.clock.open(this);
    try {
      await greeted;
      await sleep(Math.random() * this.options.staggerMs);
      for (let i = 0; i < this.options.turns; i++) {
        await this.ask();
        await sleep(this.options.pauseMs.min + Math.random() * (this.options.pauseMs.max - this.options.pauseMs.min));
      }
    } finally {
      this.clock.close(this);
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'leave', end: true }));
      socket.close();
    }
    if (this.faceLoad) this.figures.face = await this.faceLoad;
    return this.figures;
  }

  sendFrame(index: number, now: number): void {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    if (this.speakNext) {
      this.speakNext = false;
      this.speakingFrom = index;
    }
    const at = this.speakingFrom === null ? -1 : index - this.speakingFrom;
    const frame = at >= 0 ? this.turn.frames[at] : undefined;
    socket.send(frame ?? SILENT_MIC_FRAME);
    if (frame && at === this.turn.frames.length - 1) {
      // This frame carried the speech's end: it ended that long before the frame's 20 ms were over.
      this.speechEndedAt = now - (this.turn.frames.length * MIC_FRAME_MS - this.turn.speechEndsMs);
      this.marks = {};
      this.speakingFrom = null;
      this.release('spoken');
    }
  }

  /** Speaks the question and waits for the PAL's reply to be heard and to end. */
  private async ask(): Promise<void> {
    const spoken = this.waitFor('spoken', 60_000);
    this.speakNext = true;
    await spoken;
    // The reply's end is waited for after it has been heard; a reply that never came has no end either.
    const replied = this.waitFor('replied', this.options.replyTimeoutMs).catch(() => undefined);
    const heard = await this.waitFor('heard', this.options.replyTimeoutMs).then(
      () => true,
      () => false,
    );
    if (!heard) {
      this.figures.unanswered++;
      this.speechEndedAt = null;
    }
    await replied;
  }

  private onEvent(eventType: string | undefined, role: string | undefined): void {
    if (this.speechEndedAt !== null) {
      const at = performance.now() - this.speechEndedAt;
      if (eventType === 'conversation.user.stopped_speaking') this.marks.turnEnded ??= at;
      else if (eventType === 'conversation.utterance' && role === 'user') this.marks.transcribed ??= at;
      else if (eventType === 'conversation.replica.started_speaking') this.marks.replyStarted ??= at;
    }
    if (eventType === 'conversation.replica.started_speaking') this.playout.utteranceStarted();
    else if (eventType === 'conversation.replica.stopped_speaking') {
      this.playout.utteranceEnded();
      this.release('replied');
    }
  }

  private onAudio(data: Buffer): void {
    const frame = decodeAudioFrame(data);
    if (!frame || frame.kind !== AudioFrameKind.palVoice) return;
    const played = this.playout.receive(frame, performance.now());
    this.figures.palSlices++;
    if (played.late) this.figures.lateSlices++;
    if (this.speechEndedAt !== null && played.audibleAt !== null) {
      const heard = played.audibleAt - this.speechEndedAt;
      this.figures.heardMs.push(heard);
      const { turnEnded = Number.NaN, transcribed = Number.NaN, replyStarted = Number.NaN } = this.marks;
      this.figures.stages.push({ turnEnded, transcribed, replyStarted, heard });
      this.speechEndedAt = null;
      this.release('heard');
    }
  }

  private waitFor(what: 'spoken' | 'replied' | 'heard', timeoutMs: number): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this[what] = null;
        reject(new Error(`no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      this[what] = { resolve, timer };
    });
  }

  private release(what: 'spoken' | 'replied' | 'heard'): void {
    const waiter = this[what];
    if (!waiter) return;
    this[what] = null;
    clearTimeout(waiter.timer);
    waiter.resolve();
  }
}

/** rig.json, then its two sheets (their URLs relative to it), as rig-face.ts loads them. */
async function fetchRig(rigUrl: string): Promise<FaceFetch> {
  const got: FaceFetch = { bytes: 0, files: 0, cacheControl: [] };
  const get = async (url: string) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`face rig file ${url}: ${response.status}`);
    const body = new Uint8Array(await response.arrayBuffer());
    got.bytes += body.length;
    got.files++;
    got.cacheControl.push(response.headers.get('cache-control') ?? '(none)');
    return body;
  };
  const rig = JSON.parse(new TextDecoder().decode(await get(rigUrl))) as { idle: { url: string }; mouths: { sheet: { url: string } } };
  await Promise.all([rig.idle.url, rig.mouths.sheet.url].map((u) => get(new URL(u, rigUrl).href)));
  return got;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
