// palkit's own app-message between a visitor's Daily page and palkit's runner (the PAL's side of a Daily
// room), about who can hear the visitor. It is not part of the interactions protocol: its message_type
// `palkit` and event_type `palkit.hearing` are outside the protocol's `conversation.*` names, and the
// elements consume it before anything parses the protocol. A bring-your-own bot never sends it.
//   runner → visitor: `{ transcribes, language? }` — whether the service recognises the visitor's speech
//     (else the visitor's page recognises it, where it can), and the PAL's fixed language for recognition.
//   visitor → runner: `{ speech_recognition }` — the page's recognition stopped working (false).
// Whether the visitor's page recognises at all travels earlier, in its Daily userData (`palkit`), so the
// PAL knows it before its greeting.
export const HEARING_EVENT = 'palkit.hearing';

export interface HearingMessage {
  message_type: 'palkit';
  event_type: typeof HEARING_EVENT;
  conversation_id?: string;
  properties: { transcribes?: boolean; language?: string; speech_recognition?: boolean };
}

/** What a visitor's Daily page puts in its userData: whether it turns the visitor's speech into words. */
export interface VisitorUserData {
  palkit: { speech_recognition: boolean };
}

export function hearingMessage(properties: HearingMessage['properties'], conversationId?: string): HearingMessage {
  return {
    message_type: 'palkit',
    event_type: HEARING_EVENT,
    ...(conversationId ? { conversation_id: conversationId } : {}),
    properties,
  };
}

/** The message when `raw` is palkit's hearing message (its fields checked), else null. */
export function readHearingMessage(raw: unknown): HearingMessage | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as Partial<HearingMessage>;
  if (m.message_type !== 'palkit' || m.event_type !== HEARING_EVENT) return null;
  const p = typeof m.properties === 'object' && m.properties !== null ? (m.properties as Record<string, unknown>) : {};
  return hearingMessage(
    {
      ...(typeof p.transcribes === 'boolean' ? { transcribes: p.transcribes } : {}),
      ...(typeof p.language === 'string' && p.language ? { language: p.language } : {}),
      ...(typeof p.speech_recognition === 'boolean' ? { speech_recognition: p.speech_recognition } : {}),
    },
    typeof m.conversation_id === 'string' ? m.conversation_id : undefined,
  );
}

/** Whether a Daily participant's userData says its page recognises speech (false when it says nothing). */
export function userDataRecognises(userData: unknown): boolean {
  const palkit = typeof userData === 'object' && userData !== null ? (userData as Partial<VisitorUserData>).palkit : undefined;
  return palkit?.speech_recognition === true;
}
