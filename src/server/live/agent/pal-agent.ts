// The local PAL in a room: joins when the visitor does, delivers the disclosure, greets, answers what
// participants say or send, shows Magic Canvas cards (shown-cards.ts), and records every turn of the
// transcript. Its voice and the speaker saying one utterance at a time are pal-mouth.ts; the disclosure's
// delivery is disclosure-delivery.ts.
import { randomUUID } from 'node:crypto';
import type { Participant, RoomTranscriptEntry } from '../../../protocol/room.js';
import { parseInteraction } from '../../../protocol/interactions.js';
import { canvasInteractionProperties, type RoomMessage } from './app-message.js';
import type { ServiceDeps } from '../../platform/context.js';
import { emitConversationCallbacks } from '../../resources/conversations/events-store.js';
import { palJoinedCallbacks } from '../../resources/conversations/callbacks.js';
import type { LiveConversation } from '../../resources/conversations/live-conversation.js';
import { GuardrailCheck, refusalLine } from './guardrails.js';
import { answerSource, once, type AnswerContext } from './answer.js';
import { cardFor } from './cards.js';
import { ShownCards } from './shown-cards.js';
import { visitorClock, type VisitorClock } from '../../resources/pals/lines/spoken-time.js';
import { greetingFor } from './disclosure.js';
import { deliverDisclosure } from './disclosure-delivery.js';
import type { ChatMessage } from './llm.js';
import type { ReplyStage, Speaker, SpeechSource } from '../speech/utterances.js';
import { EchoAudioStreams } from '../speech/echo-audio.js';
import { PalHearing, type HearingPort } from './hearing.js';
import { answerLine, conversationLanguages, fixedLanguage, replyLanguage } from '../../resources/pals/lines/language.js';
import { offersSpeech } from './speech-offer.js';
import type { AudioOut, PalVoice } from '../../providers/voice/pal-voice.js';
import { palMouth } from './pal-mouth.js';
import { palParticipant } from './pal-participant.js';
import { earsFor } from '../ears/ears.js';
import { TranscriptWriter, afterHandOff } from './transcript-writer.js';
import { historyOf, unansweredTurn } from './history.js';
import { PalTools } from './tools.js';
import { turnText } from './turn-text.js';

/** What the PAL needs from its room. */
export interface PalRoomPort {
  /** Broadcasts a message from the PAL to every participant. */
  send(message: RoomMessage): void;
  /** The PAL's voice, to every participant. */
  readonly audio: AudioOut;
  /** Tells every participant something about the call (e.g. that the PAL has no voice). */
  notice(code: string, message: string): void;
  /** When the call started (transcript `seconds_from_start`). */
  readonly startedAt: Date;
  /** The conversation so far, as stored (a room opened again after a move): the PAL goes on from it. */
  readonly transcript?: readonly RoomTranscriptEntry[];
}

export interface Sender {
  participantId: string;
  userName: string;
}

const MAX_TEXT = 4000;
/**
 * A room opened again waits this long for the page to send again what its last room never answered (the
 * page's outbox does so as it joins) before answering the stored turn itself: either way it is answered once.
 */
export const UNANSWERED_WAIT_MS = 1_000;

export class PalAgent {
  readonly participant: Participant;
  private readonly speaker: Speaker;
  private readonly voice: PalVoice;
  private readonly answers: AnswerContext;
  private readonly cards = new ShownCards();
  /** The visitor's time zone and page language (UTC, said as such, until a visitor sends them). */
  private clock: VisitorClock = {};
  /** Whether the visitor's speech can reach the PAL as words (room/room.ts sets it as the visitor joins). */
  private hears = true;
  /** The greeting invited the visitor to speak (said while the PAL could hear them). */
  private offeredSpeech = false;
  private readonly transcript: TranscriptWriter;
  private seq = 0;
  private turnIdx = 0;
  private voiceLost = false;
  private readonly echoAudio = new EchoAudioStreams((source, inferenceId) =>
    this.speaker.say(source, { inferenceId, turnIdx: this.turnIdx, interruptible: true }),
  );
  private readonly hearing: PalHearing;
  private hearingLost = false;
  /** The visitor's last turn, stored but never answered before the room moved (history.ts unansweredTurn). */
  private unanswered: string | null;
  /** Resolved once per conversation; echo PALs run no guardrails (their pipeline has no model). */
  private readonly guardrails: Promise<GuardrailCheck | null>;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly conv: LiveConversation,
    private readonly room: PalRoomPort,
  ) {
    this.transcript = new TranscriptWriter(deps.db, deps.log, conv.conversationId, room.startedAt, deps.clock);
    this.participant = palParticipant(deps, conv);
    // Listed once, as the conversation starts; only a PAL that asks a model can use them.
    const tools =
      conv.pal.pipelineMode === 'full' && deps.config.llm.baseUrl
        ? PalTools.load(deps, conv).catch(() => PalTools.none(deps, conv.conversationId))
        : Promise.resolve(PalTools.none(deps, conv.conversationId));
    this.answers = {
      deps,
      conv,
      context: conv.conversationalContext,
      history: historyOf(room.transcript ?? []),
      tools,
      onToolCall: (call, inferenceId) =>
        this.emit('conversation.tool_call', { name: call.name, arguments: call.arguments, tool_call_id: call.id }, inferenceId),
    };
    this.unanswered = unansweredTurn(room.transcript ?? [], deps.clock.now());
    this.guardrails = conv.pal.pipelineMode === 'echo' ? Promise.resolve(null) : GuardrailCheck.load(deps, conv).catch(() => null);
    ({ voice: this.voice, speaker: this.speaker } = palMouth(deps, conv, room.audio, {
      emit: (eventType, properties, inferenceId, turnIdx) => this.emit(eventType, properties, inferenceId, turnIdx),
      mark: (stage, inferenceId) => this.mark(stage, inferenceId),
      transcript: this.transcript,
      history: this.answers.history,
      language: () => this.language,
      voiceFailed: (error) => this.voiceFailed(error),
    }));
    this.hearing = new PalHearing(deps, earsFor(deps), this.hearingPort(), () => fixedLanguage(this.conv) ?? '');
  }

  /**
   * The PAL is ready: the join callbacks, then (without waiting) disclosure and greeting, spoken once
   * `faceShown` resolves (the visitor sees the PAL's face, room/face-shown.ts); what is said to the PAL
   * meanwhile waits behind them. When the room is reopened (the instance that held it stopped), the PAL
   * comes back quietly.
   */
  async join(
    firstTime: boolean,
    faceShown: Promise<unknown> = Promise.resolve(),
    { joinCallbacks = true }: { joinCallbacks?: boolean } = {},
  ): Promise<void> {
    const { conv } = this;
    if (!firstTime) {
      // Reopened on a turn its last room never answered: answered here, unless the page sends it again first.
      if (this.unanswered)
        this.deps.clock
          .setTimeout(
            () => this.unanswered && this.userTurn(this.unanswered, { participantId: '', userName: '' }, false),
            UNANSWERED_WAIT_MS,
          )
          .unref();
      return;
    }
    this.speaker.holdUntil(faceShown);
    // Speech is queued first so that nothing said to the PAL can be answered before the disclosure.
    deliverDisclosure(this.deps, conv, this.speaker, this.turnIdx, (eventType, properties) => this.emit(eventType, properties));
    const greeting = greetingFor(conv, { hears: this.hears });
    this.offeredSpeech = offersSpeech(greeting, replyLanguage(conv));
    void this.speaker.say(once(greeting), { inferenceId: randomUUID(), turnIdx: this.turnIdx, interruptible: true });
    // A Daily conversation's join callbacks went when its start was claimed (resources/conversations/pal-joined.ts).
    if (!joinCallbacks) return;
    await emitConversationCallbacks(
      this.deps,
      { conversation_id: conv.conversationId, owner_id: conv.ownerId, callback_url: conv.callbackUrl },
      palJoinedCallbacks(conv.conversationId, conv.faceId, this.deps.clock.now()),
    );
  }

  /** The page's time zone and language as the visitor joined: times are said as their clock reads. */
  setVisitorClock(timeZone: string | undefined, locale: string | undefined): void {
    this.clock = visitorClock(timeZone, locale);
  }

  /** Whether the PAL can hear the visitor (a recogniser here or in their browser): if not, it offers no speech. */
  setHearing(hears: boolean): void {
    const could = this.hears;
    this.hears = hears;
    // The greeting invited speech, and then the page's recognition stopped working: the PAL says so, once.
    if (could && !hears && this.offeredSpeech) {
      this.offeredSpeech = false;
      this.say(once(answerLine(this.language, 'cannotHear')), randomUUID(), this.language);
    }
  }

  /** The visitor switched between voice and text: in text mode the PAL writes its replies instead of speaking them. */
  setTextMode(on: boolean): void {
    this.voice.textOnly = on;
  }

  /** An app-message from a participant (or the canvas endpoint) addressed to the room or the PAL. */
  handle(raw: unknown, from: Sender): void {
    const interaction = canvasInteractionProperties(raw);
    if (interaction) return this.canvasInteraction(interaction);
    const message = parseInteraction(raw);
    if (!message) return;
    const p = message.properties;
    switch (message.event_type) {
      case 'conversation.respond':
        if (typeof p.text === 'string') this.userTurn(turnText(p.text, MAX_TEXT), from, true);
        return;
      case 'conversation.utterance':
        // Speech recognised on the visitor's side: already relayed to the others, so only answered here.
        if (p.role === 'user' && typeof p.speech === 'string') this.userTurn(turnText(p.speech, MAX_TEXT), from, false);
        return;
      case 'conversation.echo':
        if (p.modality === 'audio' || typeof p.audio === 'string') return this.echoAudio.chunk(p);
        if (typeof p.text === 'string' && p.text.trim()) this.say(once(p.text.trim().slice(0, MAX_TEXT)), randomUUID());
        return;
      case 'conversation.interrupt':
        this.speaker.interrupt();
        return;
      case 'conversation.overwrite_llm_context':
        if (typeof p.context === 'string') this.answers.context = p.context;
        return;
      case 'conversation.append_llm_context':
        if (typeof p.context === 'string')
          this.answers.context = this.answers.context ? `${this.answers.context}\n${p.context}` : p.context;
        return;
      case 'conversation.tool_result':
        if (typeof p.tool_call_id === 'string') {
          const output = typeof p.output === 'string' ? p.output : JSON.stringify(p.output ?? null);
          this.answers.history.push({
            role: 'system',
            content: `Result of tool call ${p.tool_call_id} (${p.status === 'error' ? 'error' : 'success'}): ${output.slice(0, MAX_TEXT)}`,
          });
        }
        return;
      default:
        return; // sensitivity and everything else the local PAL has no use for
    }
  }

  /** Whether PALs of this service turn the visitor's microphone audio into text themselves. */
  static transcribes(deps: ServiceDeps): boolean {
    return earsFor(deps).transcribe !== undefined;
  }

  /** Microphone audio from a visitor. */
  hear(from: Participant, samples: Int16Array, sampleRate: number): void {
    this.hearing.hear(from, samples, sampleRate);
  }

  /** A participant left the room. */
  left(participantId: string): void {
    this.hearing.forget(participantId);
  }

  /** Operators (the keyed events endpoint) push PAL-side messages as if the PAL sent them. */
  push(message: RoomMessage): void {
    this.room.send({ ...message, conversation_id: this.conv.conversationId, seq: ++this.seq });
    this.cards.pushed(message);
  }

  /** Stops talking and waits until every turn is recorded. */
  async stop(): Promise<void> {
    this.hearing.close();
    await this.speaker.close();
    await this.transcript.drained();
  }

  /** The answer, unless the turn touches one of the PAL's guardrails: then a refusal (and its callback). */
  private guarded(text: string, answer: SpeechSource): SpeechSource {
    const triggered = this.guardrails.then((g) => g?.check(text) ?? null).catch(() => null);
    const refusal = refusalLine(this.conv, text);
    return async function* (signal) {
      if (await triggered) {
        yield refusal;
        return;
      }
      yield* answer(signal);
    };
  }

  private userTurn(text: string, from: Sender, announce: boolean): void {
    if (!text) return; // nothing left once cleaned
    // The turn the last room stored but never answered (sent again by the page, or taken up here): stored once.
    const stored = text === this.unanswered;
    this.unanswered = null;
    if (stored && this.answers.history.at(-1)?.content === text) this.answers.history.pop();
    const inferenceId = randomUUID();
    this.mark('received', inferenceId);
    this.turnIdx++;
    // The visitor spoke over the PAL: it stops, as a person would.
    this.speaker.interrupt();
    if (announce && !stored) this.emit('conversation.utterance', { role: 'user', speech: text }, inferenceId);
    if (!stored)
      this.transcript.record(
        { role: 'user', content: text, ...this.transcript.timing(this.deps.clock.now(), 0), participant_name: from.userName },
        afterHandOff(),
      );
    const lang = replyLanguage(this.conv, text);
    const card = this.conv.canvas ? cardFor(text, this.conv.canvas, this.deps.clock.now(), lang) : null;
    if (card) this.cards.shownIn = lang;
    const source = card ? once(card.line) : this.guarded(text, answerSource(this.answers, text, inferenceId));
    this.answers.history.push({ role: 'user', content: text } satisfies ChatMessage);
    if (card) this.toolCall(card.name, card.args, inferenceId);
    // The reply is in the visitor's language when it is one of the conversation's, and so is the voice.
    this.say(source, inferenceId, lang);
  }

  /** A recorded canvas interaction (relayed by the canvas endpoint, not parsed as a client message). */
  canvasInteraction(p: Record<string, unknown>): void {
    const answered = this.cards.answer(p, this.language, this.clock);
    if (!answered) return;
    const inferenceId = randomUUID();
    this.turnIdx++;
    this.answers.history.push({
      role: 'user',
      content: `[canvas ${String(p.component)} ${answered.type}] ${JSON.stringify(answered.value)}`,
    });
    if (answered.closes) this.toolCall('canvas_clear', {}, inferenceId);
    this.say(once(answered.line), inferenceId, answered.language);
  }

  private toolCall(name: string, args: Record<string, unknown>, inferenceId: string): void {
    const toolCallId = `call_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    if (name.startsWith('canvas_show_')) this.cards.show(toolCallId, args);
    this.emit('conversation.tool_call', { name, arguments: JSON.stringify(args), tool_call_id: toolCallId }, inferenceId);
  }

  private say(source: SpeechSource, inferenceId: string, language?: string): void {
    void this.speaker.say(source, { inferenceId, turnIdx: this.turnIdx, interruptible: true, ...(language ? { language } : {}) });
  }

  /** The language the PAL speaks in this conversation. */
  private get language(): string {
    return conversationLanguages(this.conv)[0] ?? 'en';
  }

  private hearingPort(): HearingPort {
    const sender = (p: Participant): Sender => ({ participantId: p.participant_id, userName: p.user_name });
    const speaker = this.speaker;
    return {
      get palSpeaking() {
        return speaker.speaking;
      },
      started: () => {
        // Speaking over the PAL cuts it off at once, as a person would stop. A sound before it has begun (its
        // first line waiting for its face) drops nothing: a cough or a beep must not cost the greeting, and
        // the visitor's turn, once heard, replaces it (userTurn).
        if (this.speaker.speaking) this.speaker.interrupt();
        if (this.hearing.transcribes) this.emit('conversation.user.started_speaking', {});
      },
      // The mark says how long ago the speech ended, so that the page's heard latency counts from the end of
      // the speech, not from the end of the wait (250 ms to 1.5 s, longer while early words are transcribed).
      stopped: (_from, silenceMs) => {
        if (this.hearing.transcribes) this.emit('conversation.user.stopped_speaking', { silence_ms: Math.round(silenceMs) });
      },
      // The visitor's words as they are recognised, before the turn is over: a caption that grows.
      partial: (_from, text) =>
        this.emit('conversation.utterance.streaming', { role: 'user', speech: turnText(text, MAX_TEXT), final: false }),
      heard: (from, text) => this.userTurn(turnText(text, MAX_TEXT), sender(from), true),
      failed: () => {
        if (this.hearingLost) return;
        this.hearingLost = true;
        this.room.notice('hearing_unavailable', 'The PAL could not understand the audio; type your message instead.');
      },
      // Speech with no words in it (it stopped the PAL all the same): never leave the visitor in silence.
      missed: () => this.room.notice('not_heard', "The PAL didn't catch that; say it again or type your message."),
    };
  }

  /** The voice failed: the visitor is told once, and the PAL goes on in captions. */
  private voiceFailed(error: unknown): void {
    this.deps.log.error('speech synthesis failed', {
      conversation_id: this.conv.conversationId,
      error: error instanceof Error ? error.message : String(error),
    });
    if (this.voiceLost) return;
    this.voiceLost = true;
    this.room.notice('voice_unavailable', "The PAL's voice is not available right now; its replies appear as captions.");
  }

  private emit(eventType: string, properties: Record<string, unknown>, inferenceId?: string, turnIdx = this.turnIdx): void {
    this.room.send({
      message_type: 'conversation',
      event_type: eventType,
      conversation_id: this.conv.conversationId,
      ...(inferenceId ? { inference_id: inferenceId } : {}),
      seq: ++this.seq,
      turn_idx: turnIdx,
      properties,
    });
  }

  /**
   * Where a reply's latency goes, as debug lines (PALKIT_LOG=debug): the visitor's turn received, then the
   * stages of the reply's first sound (utterances.ts, providers/voice/pal-voice.ts). `at` is Unix epoch ms to 0.1 ms, the clock a
   * page reads as performance.timeOrigin + performance.now(), so the page's marks line up with these.
   */
  private mark(stage: 'received' | ReplyStage, inferenceId: string): void {
    const at = Math.round((performance.timeOrigin + performance.now()) * 10) / 10;
    this.deps.log.debug('turn stage', { conversation_id: this.conv.conversationId, inference_id: inferenceId, stage, at });
  }

  /** Resolves once the transcript turns written so far are in the database. */
  settled(): Promise<void> {
    return this.transcript.settled();
  }
}
