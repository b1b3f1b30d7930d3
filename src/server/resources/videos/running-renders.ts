// The videos this process is generating, each with a way to stop it: deleting a video ends its
// generation (speech, drawing, encoding) at once, not when its next step finds the row gone. Another
// instance's generation notices on its own (generate.ts looks for its row every second).
const running = new Map<string, AbortController>();

/** Marks a video as generating here; `signal` aborts when it is deleted; call `done` when the run ends. */
export function generationOf(videoId: string): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  running.set(videoId, controller);
  return {
    signal: controller.signal,
    done: () => {
      if (running.get(videoId) === controller) running.delete(videoId);
    },
  };
}

/** The video was deleted: its generation here (if any) stops now. */
export function stopGeneration(videoId: string): void {
  running.get(videoId)?.abort(new VideoDeleted());
}

export class VideoDeleted extends Error {
  constructor() {
    super('the video was deleted');
  }
}
