// `pal-tool-call`: Fired when the PAL calls a tool; `arguments` is a JSON string. Reply with `sendMessage({event_type: 'conversation.tool_result', …})`.
import { PalEvent } from './pal-event.js';

export type PalToolCallDetail = {
  readonly name: string;
  readonly arguments: string;
  readonly tool_call_id?: string;
  readonly seq?: number;
  readonly turn_idx?: number;
};

/** Fired when the PAL calls a tool; `arguments` is a JSON string. Reply with `sendMessage({event_type: 'conversation.tool_result', …})`. */
export class PalToolCallEvent extends PalEvent<PalToolCallDetail> {
  static readonly type = 'pal-tool-call';

  constructor(detail: PalToolCallDetail) {
    super(PalToolCallEvent.type, detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-tool-call': PalToolCallEvent;
  }
}
