// What an instance has yet to send to the others, bounded: the channel sends one payload per round trip,
// so whatever arrives faster (a flood relayed from here, the database away for a while) waits here.
// Audio is shed first — it is useless late, and the PAL or the visitor goes on without a few frames —
// so that the room's messages behind it are not held up: audio that waited longer than audioMaxAgeMs is
// dropped when its turn comes (whatever the link's speed, the audio ahead of a message costs it at most
// that long), audio is refused once audioBytes are queued, and a message that would take the queue past
// maxBytes first clears the queued audio, then is itself dropped if it still does not fit. Sizes count a
// fixed overhead per payload, so the number of payloads is bounded too.

export const SEND_QUEUE_LIMITS = {
  /** Audio waits only while less than this is queued (about half a second of one 16 kHz microphone): each payload costs a round trip, and the room's other messages wait behind it. */
  audioBytes: 24 * 1024,
  /** Nothing is queued past this. */
  maxBytes: 4 * 1024 * 1024,
  /** Audio that waited this long is not sent any more (long enough to ride out an event-loop stall of a busy instance). */
  audioMaxAgeMs: 1_000,
} as const;
const PAYLOAD_OVERHEAD = 128;

export interface Queued {
  to: string;
  payload: string;
  audio: boolean;
  /** When it was queued (performance.now()). */
  at: number;
}

export type ShedKind = 'audio' | 'message';

export class SendQueue {
  private items: Queued[] = [];
  private head = 0;
  private size = 0;

  constructor(
    private readonly onShed: (kind: ShedKind, payloads: number) => void,
    private readonly limits: { audioBytes: number; maxBytes: number; audioMaxAgeMs: number } = SEND_QUEUE_LIMITS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Bytes waiting (with the per-payload overhead). */
  get bytes(): number {
    return this.size;
  }

  get length(): number {
    return this.items.length - this.head;
  }

  /** Queues one message's payloads, all or none; false when it was shed. */
  push(to: string, payloads: string[], audio: boolean): boolean {
    const cost = payloads.reduce((n, p) => n + cost1(p), 0);
    if (audio && this.size + cost > this.limits.audioBytes) {
      this.onShed('audio', payloads.length);
      return false;
    }
    if (this.size + cost > this.limits.maxBytes) this.dropAudio();
    if (this.size + cost > this.limits.maxBytes) {
      this.onShed(audio ? 'audio' : 'message', payloads.length);
      return false;
    }
    const at = this.now();
    for (const payload of payloads) this.items.push({ to, payload, audio, at });
    this.size += cost;
    return true;
  }

  /** The next payload to send, taken off the queue (audio that waited too long is dropped on the way). */
  shift(): Queued | undefined {
    const oldest = this.now() - this.limits.audioMaxAgeMs;
    let stale = 0;
    let item = this.take();
    while (item?.audio && item.at < oldest) {
      stale++;
      item = this.take();
    }
    if (stale) this.onShed('audio', stale);
    return item;
  }

  private take(): Queued | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.items[this.head++] = undefined as unknown as Queued; // let the payload go
    this.size -= cost1(item.payload);
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  /** Removes every queued audio payload (a message in parts loses its remaining parts; the far side drops the rest). */
  private dropAudio(): void {
    const kept: Queued[] = [];
    let dropped = 0;
    for (let i = this.head; i < this.items.length; i++) {
      const item = this.items[i]!;
      if (item.audio) {
        this.size -= cost1(item.payload);
        dropped++;
      } else kept.push(item);
    }
    this.items = kept;
    this.head = 0;
    if (dropped) this.onShed('audio', dropped);
  }
}

function cost1(payload: string): number {
  return payload.length + PAYLOAD_OVERHEAD;
}
