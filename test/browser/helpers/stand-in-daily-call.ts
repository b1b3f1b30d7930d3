// One stand-in for daily-js's call object, for the browser tests of the elements' Daily transport and of
// the runner page's bridge: the part of daily-js's own DailyCall type they use, recording what it is given.
import type {
  DailyCallOptions,
  DailyEvent,
  DailyEventObject,
  DailyFactoryOptions,
  DailyParticipant,
  DailyParticipantsObject,
} from '@daily-co/daily-js';
import type { DailyCallObject } from '../../../src/palkit/client/transport/daily.js';

export type InputSources = { audioSource?: MediaStreamTrack; videoSource?: MediaStreamTrack; videoDeviceId?: string };

export class StandInDailyCall implements DailyCallObject {
  handlers = new Map<string, ((event: never) => void)[]>();
  joinedWith: DailyCallOptions | undefined;
  sent: [unknown, unknown][] = [];
  audio: boolean;
  video: boolean;
  /** The last setInputDevicesAsync's argument, and every source given so far merged. */
  devices: unknown;
  sources: InputSources = {};
  left = false;
  destroyed = false;
  remote: DailyParticipant | null = null;

  /** `on`: whether camera and microphone start enabled (daily-js's default), so a test can see who turned them on. */
  constructor(
    readonly options: DailyFactoryOptions,
    on = true,
  ) {
    this.audio = on;
    this.video = on;
  }

  on<T extends DailyEvent>(event: T, handler: (event: DailyEventObject<T>) => void): never {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler as (event: never) => void]);
    return this as never;
  }
  off<T extends DailyEvent>(event: T, handler: (event: DailyEventObject<T>) => void): never {
    this.handlers.set(
      event,
      (this.handlers.get(event) ?? []).filter((h) => h !== (handler as unknown)),
    );
    return this as never;
  }
  emit(event: DailyEvent, payload: object): void {
    for (const handler of this.handlers.get(event) ?? []) (handler as (e: object) => void)({ action: event, ...payload });
  }
  async join(options?: DailyCallOptions): Promise<DailyParticipantsObject> {
    this.joinedWith = options;
    return this.participants();
  }
  async leave(): Promise<void> {
    this.left = true;
  }
  async destroy(): Promise<void> {
    this.destroyed = true;
  }
  participants(): DailyParticipantsObject {
    const local = participant('me', true);
    return this.remote ? { local, [this.remote.session_id]: this.remote } : { local };
  }
  sendAppMessage(data: unknown, to?: string | string[]): never {
    this.sent.push([data, to]);
    return this as never;
  }
  setLocalAudio(enabled: boolean): never {
    this.audio = enabled;
    return this as never;
  }
  setLocalVideo(enabled: boolean): never {
    this.video = enabled;
    return this as never;
  }
  async setInputDevicesAsync(devices: InputSources): Promise<never> {
    this.devices = devices;
    this.sources = { ...this.sources, ...devices };
    return {} as never;
  }
}

/** A participant as daily-js lists it, its video track playable when given. */
export function participant(id: string, local: boolean, track?: MediaStreamTrack): DailyParticipant {
  const state = (t?: MediaStreamTrack) => ({ state: t ? 'playable' : 'off', subscribed: true, persistentTrack: t }) as never;
  return {
    session_id: id,
    user_name: local ? 'You' : 'PAL',
    local,
    tracks: { audio: state(), video: state(track), screenAudio: state(), screenVideo: state() },
  } as unknown as DailyParticipant;
}
