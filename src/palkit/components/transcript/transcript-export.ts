// The transcript as a file: plain text for people, JSON in the service's transcript-entry shape
// (role user|assistant, content, timestamp in epoch seconds, seconds_from_start) for programs. Both hold
// what was said; the tools the PAL used are shown in the panel only.
import type { TranscriptEntry } from './transcript-model.js';

export type TranscriptFormat = 'txt' | 'json';

export interface TranscriptLabels {
  user: string;
  replica: string;
  interrupted: string;
}

const spoken = (entries: readonly TranscriptEntry[]) => entries.filter((e) => e.role !== 'tool');

export function transcriptJson(all: readonly TranscriptEntry[], conversationId?: string): string {
  const entries = spoken(all);
  const start = entries[0]?.timestamp ?? 0;
  return JSON.stringify(
    {
      conversation_id: conversationId ?? null,
      transcript: entries.map((e) => ({
        role: e.role === 'replica' ? 'assistant' : 'user',
        content: e.speech,
        timestamp: e.timestamp / 1000,
        seconds_from_start: (e.timestamp - start) / 1000,
        ...(e.inferenceId ? { inference_id: e.inferenceId } : {}),
        ...(e.interrupted ? { interrupted: true } : {}),
        ...(e.source === 'chat' ? { source: 'chat' } : {}),
      })),
    },
    null,
    2,
  );
}

export function transcriptText(all: readonly TranscriptEntry[], labels: TranscriptLabels): string {
  const entries = spoken(all);
  return entries
    .map((e) => {
      const time = new Date(e.timestamp).toISOString().slice(11, 19);
      const who = e.role === 'replica' ? labels.replica : labels.user;
      return `[${time}] ${who}: ${e.speech}${e.interrupted ? ` (${labels.interrupted})` : ''}`;
    })
    .join('\n')
    .concat(entries.length ? '\n' : '');
}

/** Save a blob under `fileName` through a temporary object URL. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // Revoke after the click has been handled; revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
