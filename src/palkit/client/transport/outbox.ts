// What the visitor said or typed to the room, kept until a room has read it: the room answers a `ping`
// once it has read every frame sent before it, so a frame followed by an answered ping is done with. The
// rest is sent again to the room joined after a move (a question typed while the room's holder died is
// answered by its new home, once). Bounded: past OUTBOX_LIMITS the oldest is dropped.

export const OUTBOX_LIMITS = { frames: 32, bytes: 64 * 1024 } as const;

interface Kept {
  text: string;
  /** Sent on the socket joined now. */
  sent: boolean;
  /** The ping sent after it on that socket, once one was. */
  ping: number | null;
}

export class Outbox {
  #kept: Kept[] = [];
  #bytes = 0;

  get size(): number {
    return this.#kept.length;
  }

  keep(text: string): void {
    this.#kept.push({ text, sent: false, ping: null });
    this.#bytes += text.length;
    while (this.#kept.length > OUTBOX_LIMITS.frames || (this.#bytes > OUTBOX_LIMITS.bytes && this.#kept.length > 1))
      this.#bytes -= this.#kept.shift()!.text.length;
  }

  /** Those not yet sent on the joined socket, in order, now taken as sent. */
  unsent(): string[] {
    const out: string[] = [];
    for (const kept of this.#kept) {
      if (kept.sent) continue;
      kept.sent = true;
      out.push(kept.text);
    }
    return out;
  }

  /** Ping `n` goes out: it follows every frame sent so far. */
  sentBefore(n: number): void {
    for (const kept of this.#kept) if (kept.sent && kept.ping === null) kept.ping = n;
  }

  /** The room answered ping `n`: what was sent before it was read. */
  confirmed(n: number): void {
    const left = this.#kept.filter((k) => k.ping === null || k.ping > n);
    for (const k of this.#kept) if (!left.includes(k)) this.#bytes -= k.text.length;
    this.#kept = left;
  }

  /** A new socket joined a room: all that is kept goes to it. */
  resend(): void {
    for (const kept of this.#kept) {
      kept.sent = false;
      kept.ping = null;
    }
  }
}
