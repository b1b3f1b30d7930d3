// `pal-tool-call`: Fired when the PAL calls a tool; `arguments` is a JSON string. Reply with `sendMessage({event_type: 'conversation.tool_result', …})`.
export type PalToolCallDetail = { readonly name: string; readonly arguments: string; readonly tool_call_id?: string; readonly seq?: number; readonly turn_idx?: number };

/** Fired when the PAL calls a tool; `arguments` is a JSON string. Reply with `sendMessage({event_type: 'conversation.tool_result', …})`. */
export class PalToolCallEvent extends Event {
  static readonly type = 'pal-tool-call';
  readonly detail: PalToolCallDetail;

  constructor(detail: PalToolCallDetail) {
    super(PalToolCallEvent.type, { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'pal-tool-call': PalToolCallEvent;
  }
}
