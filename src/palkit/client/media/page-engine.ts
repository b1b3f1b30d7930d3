// Which browser engine the page runs in, where the media code has to differ by engine (the face's capture
// and presentation, the voice's way to the visitor's ears).

export type Engine = 'chromium' | 'firefox' | 'webkit';

/** The page's engine: Gecko by a property only it has, WebKit by its vendor (Chromium's is Google's). */
export function pageEngine(): Engine {
  if ('mozInnerScreenX' in globalThis) return 'firefox';
  return /Apple/.test(globalThis.navigator?.vendor ?? '') ? 'webkit' : 'chromium';
}
