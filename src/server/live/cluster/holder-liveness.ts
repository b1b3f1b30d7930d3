// Whether the instance holding a room still answers, asked over the instance channel rather than read from
// the room's heartbeat in the database: a holder killed (SIGKILL) keeps a fresh heartbeat for seconds, and a
// join relayed to it went into nothing for 8–13 s. At a join the holder is pinged unless it was heard from
// just now; for the participants relayed from here, each quiet holder is pinged as the watch goes round.
// One that does not answer within HOLDER_ANSWER_MS while the channel is up is taken for dead.
import type { Clock } from '../../platform/time.js';

/** A holder heard from this recently needs no ping. */
export const HOLDER_QUIET_MS = 250;
/** A ping unanswered this long (the channel up all the while) means the holder is gone. */
export const HOLDER_ANSWER_MS = 1_000;
/** A holder found dead is answered dead at once for this long, unless it is heard from again. */
const DEAD_FOR_MS = 30_000;

interface Holder {
  heardAt: number;
  pingedAt: number | null;
  deadAt: number | null;
  /** Its death was named to the watch. */
  reported: boolean;
  waiting: Array<(alive: boolean) => void>;
}

export class HolderLiveness {
  readonly #holders = new Map<string, Holder>();

  constructor(
    /** Sends a ping to the instance; it answers with a pong (heard()). */
    private readonly ping: (instance: string) => void,
    /** Whether this instance's own channel is up: while it is not, nobody is judged. */
    private readonly channelReady: () => boolean,
    private readonly clock: Pick<Clock, 'now' | 'setTimeout'>,
    private readonly answerMs = HOLDER_ANSWER_MS,
  ) {}

  #now(): number {
    return this.clock.now().getTime();
  }

  #holder(instance: string): Holder {
    let holder = this.#holders.get(instance);
    if (!holder) this.#holders.set(instance, (holder = { heardAt: -Infinity, pingedAt: null, deadAt: null, reported: false, waiting: [] }));
    return holder;
  }

  /** Anything from the instance (a pong, a frame for a participant here): it is alive. */
  heard(instance: string): void {
    const holder = this.#holders.get(instance);
    if (!holder) return;
    holder.heardAt = this.#now();
    holder.pingedAt = null;
    holder.deadAt = null;
    holder.reported = false;
    for (const resolve of holder.waiting.splice(0)) resolve(true);
  }

  /** Whether the instance answers (at once when heard from just now or found dead lately; else within answerMs). */
  alive(instance: string): Promise<boolean> {
    const holder = this.#holder(instance);
    const now = this.#now();
    if (holder.deadAt !== null && now - holder.deadAt < DEAD_FOR_MS) return Promise.resolve(false);
    // Heard from just now; or nothing can be heard (this channel down): the holder is taken at its heartbeat's word.
    if (now - holder.heardAt < HOLDER_QUIET_MS || !this.channelReady()) return Promise.resolve(true);
    return new Promise((resolve) => {
      holder.waiting.push(resolve);
      if (holder.pingedAt === null) {
        holder.pingedAt = now;
        this.ping(instance);
      }
      this.clock.setTimeout(() => this.#judge(instance, holder), Math.max(0, holder.pingedAt + this.answerMs - now)).unref();
    });
  }

  /**
   * The watch over the holders of the participants relayed from here: pings the quiet ones, and answers
   * those found dead (each once).
   */
  check(instances: Iterable<string>): string[] {
    const dead: string[] = [];
    const now = this.#now();
    if (!this.channelReady()) {
      // Nothing can be heard: pings sent now or lately prove nothing.
      for (const holder of this.#holders.values()) holder.pingedAt = null;
      return dead;
    }
    for (const instance of instances) {
      const holder = this.#holder(instance);
      if (holder.pingedAt !== null && now - holder.pingedAt >= this.answerMs) this.#judge(instance, holder);
      if (holder.deadAt !== null) {
        // Found dead here or by a join's wait for the same ping: named to the watch once.
        if (!holder.reported) dead.push(instance);
        holder.reported = true;
      } else if (holder.pingedAt === null && now - holder.heardAt >= HOLDER_QUIET_MS) {
        holder.pingedAt = now;
        this.ping(instance);
      }
    }
    return dead;
  }

  /** A ping's time is up: dead unless heard from meanwhile (true), or this instance's channel was down (taken as alive). */
  #judge(instance: string, holder: Holder): boolean {
    if (this.#holders.get(instance) !== holder) return false;
    if (!this.channelReady()) holder.pingedAt = null;
    if (holder.pingedAt === null) {
      // Heard from, judged already, or nothing could be heard: whoever still waits takes the heartbeat's word.
      for (const resolve of holder.waiting.splice(0)) resolve(true);
      return false;
    }
    const left = holder.pingedAt + this.answerMs - this.#now();
    if (left > 0) {
      // A newer ping than the one this wait was for: its own time.
      this.clock.setTimeout(() => this.#judge(instance, holder), left).unref();
      return false;
    }
    holder.pingedAt = null;
    holder.deadAt = this.#now();
    for (const resolve of holder.waiting.splice(0)) resolve(false);
    return true;
  }

  /** Instances no longer of interest (no participant relayed to them, none found dead lately) are forgotten. */
  prune(keep: ReadonlySet<string>): void {
    const now = this.#now();
    for (const [instance, holder] of this.#holders) {
      if (keep.has(instance) || holder.waiting.length || holder.pingedAt !== null) continue;
      if (holder.deadAt === null || now - holder.deadAt >= DEAD_FOR_MS) this.#holders.delete(instance);
    }
  }
}
