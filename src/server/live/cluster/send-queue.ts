// What an instance has yet to send to the others, bounded: the channel sends a batch of payloads per
// round trip (notify-batch.ts), so whatever arrives faster (a flood relayed from here, the database away
// for a while) waits here. Order is kept. Each participant (a payload's `source`) has its own audio
// allowance, so one participant past it loses only its own audio; when the whole queue is full, audio
// is taken from whoever has the most queued. Audio is shed before messages — it is useless late, and
// the PAL or the visitor goes on without a few frames: audio that waited longer than audioMaxAgeMs is
// dropped when its turn comes, and a message that would take the queue past maxBytes first clears
// queued audio, then is itself dropped if it still does not fit. Sizes count a fixed overhead per
// payload, so the number of payloads is bounded too.

export const SEND_QUEUE_LIMITS = {
  /** One participant's audio waits only while less than this of it is queued (about half a second of a 16 kHz microphone, base64). */
  audioBytesPerSource: 32 * 1024,
  /** All participants' audio together (50 relayed participants each with a full allowance fit). */
  audioBytes: 2 * 1024 * 1024,
  /** Nothing is queued past this. */
  maxBytes: 4 * 1024 * 1024,
  /** Audio that waited this long is not sent any more (long enough to ride out an event-loop stall of a busy instance). */
  audioMaxAgeMs: 1_000,
} as const;
const PAYLOAD_OVERHEAD = 128;
/** A participant that shed audio this recently counts as shedding (for /metrics and /readyz). */
const SHEDDING_WINDOW_MS = 10_000;

export type SendQueueLimits = Record<keyof typeof SEND_QUEUE_LIMITS, number>;

export interface Queued {
  to: string;
  payload: string;
  audio: boolean;
  /** Whose payload it is (a relayed participant), '' for the instance's own messages. */
  source: string;
  /** When it was queued (performance.now()). */
  at: number;
  /** Shed while waiting (taken from the participant with the most audio queued). */
  dropped?: boolean;
}

export type ShedKind = 'audio' | 'message';

export class SendQueue {
  private items: Queued[] = [];
  private head = 0;
  private size = 0;
  private audioSize = 0;
  /** Audio bytes queued per source. */
  private readonly audioBySource = new Map<string, number>();
  /** When each source last had audio shed. */
  private readonly shedAt = new Map<string, number>();

  constructor(
    private readonly onShed: (kind: ShedKind, payloads: number) => void,
    private readonly limits: SendQueueLimits = SEND_QUEUE_LIMITS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Bytes waiting (with the per-payload overhead). */
  get bytes(): number {
    return this.size;
  }

  get length(): number {
    let n = 0;
    for (let i = this.head; i < this.items.length; i++) if (!this.items[i]!.dropped) n++;
    return n;
  }

  /** Participants whose audio was shed in the last few seconds. */
  get sheddingSources(): number {
    const since = this.now() - SHEDDING_WINDOW_MS;
    for (const [source, at] of this.shedAt) if (at < since) this.shedAt.delete(source);
    return this.shedAt.size;
  }

  /** Queues one message's payloads, all or none; false when it was shed. */
  push(to: string, payloads: string[], audio: boolean, source = ''): boolean {
    const cost = payloads.reduce((n, p) => n + cost1(p), 0);
    if (audio) {
      const own = this.audioBySource.get(source) ?? 0;
      if (own + cost > this.limits.audioBytesPerSource) return this.shed(source, 'audio', payloads.length);
      while (this.audioSize + cost > this.limits.audioBytes && this.dropAudioOfLargest());
      if (this.audioSize + cost > this.limits.audioBytes) return this.shed(source, 'audio', payloads.length);
    }
    while (this.size + cost > this.limits.maxBytes && this.dropAudioOfLargest());
    if (this.size + cost > this.limits.maxBytes) return this.shed(source, audio ? 'audio' : 'message', payloads.length);
    const at = this.now();
    for (const payload of payloads) this.items.push({ to, payload, audio, source, at });
    this.size += cost;
    if (audio) {
      this.audioSize += cost;
      this.audioBySource.set(source, (this.audioBySource.get(source) ?? 0) + cost);
    }
    return true;
  }

  /** The next payload to send, taken off the queue (audio that waited too long is dropped on the way). */
  shift(): Queued | undefined {
    const oldest = this.now() - this.limits.audioMaxAgeMs;
    for (let item = this.take(); item; item = this.take()) {
      if (!item.audio || item.at >= oldest) return item;
      this.shed(item.source, 'audio', 1);
    }
    return undefined;
  }

  /** Payloads off the queue, in order, until about `bytes` of them are taken (at least one, when any waits). */
  shiftUpTo(bytes: number): Queued[] {
    const batch: Queued[] = [];
    let taken = 0;
    while (taken < bytes) {
      const item = this.shift();
      if (!item) break;
      batch.push(item);
      taken += cost1(item.payload);
    }
    return batch;
  }

  private take(): Queued | undefined {
    while (this.head < this.items.length) {
      const item = this.items[this.head]!;
      this.items[this.head++] = undefined as unknown as Queued; // let the payload go
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      if (item.dropped) continue;
      this.forget(item);
      return item;
    }
    return undefined;
  }

  private forget(item: Queued): void {
    const cost = cost1(item.payload);
    this.size -= cost;
    if (!item.audio) return;
    this.audioSize -= cost;
    const left = (this.audioBySource.get(item.source) ?? 0) - cost;
    if (left > 0) this.audioBySource.set(item.source, left);
    else this.audioBySource.delete(item.source);
  }

  /**
   * Sheds the queued audio of the participant with the most of it (a message in parts loses its
   * remaining parts; the far side drops the rest); false when no audio is queued.
   */
  private dropAudioOfLargest(): boolean {
    let largest: string | null = null;
    for (const [source, bytes] of this.audioBySource) if (largest === null || bytes > this.audioBySource.get(largest)!) largest = source;
    if (largest === null) return false;
    let dropped = 0;
    for (let i = this.head; i < this.items.length; i++) {
      const item = this.items[i]!;
      if (item.dropped || !item.audio || item.source !== largest) continue;
      item.dropped = true;
      this.forget(item);
      dropped++;
    }
    this.audioBySource.delete(largest);
    if (dropped) this.shed(largest, 'audio', dropped);
    return true;
  }

  private shed(source: string, kind: ShedKind, payloads: number): false {
    if (kind === 'audio') {
      this.shedAt.set(source, this.now());
      if (this.shedAt.size > 10_000) void this.sheddingSources; // prune
    }
    this.onShed(kind, payloads);
    return false;
  }
}

function cost1(payload: string): number {
  return payload.length + PAYLOAD_OVERHEAD;
}
