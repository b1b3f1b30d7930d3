// Types of engines.mjs (plain JavaScript, so that web-test-runner's config can import it without tsx).
export type Engine = 'chromium' | 'firefox' | 'webkit';
export const ENGINES: Engine[];
export function selectedEngines(value?: string): Engine[];
export const CHROMIUM_PATH: string;
export const FIREFOX_PATH: string;
export const WEBKIT_DRIVER_PATH: string;
export const chromiumArgs: string[];
export function firefoxPrefs(options?: { reducedMotion?: boolean; autoplay?: boolean; touch?: boolean }): Record<string, unknown>;
export function miniBrowserPath(): string;
export function miniBrowserArgs(options?: { gesture?: boolean }): string[];
export function freePort(): Promise<number>;
/** Starts this process's own PulseAudio daemon (once) and sets PULSE_SERVER for the browsers it starts; its address, or null. */
export function ensurePulseAudio(): string | null;
export function startDisplay(): Promise<{ display: string; close(): Promise<void> }>;
export function startWebKitDriver(options: {
  display: string;
  reducedMotion?: boolean;
}): Promise<{ url: string; output(): string; close(): Promise<void> }>;
export function startStandInProxy(
  respond?: (url: URL, req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => boolean,
): Promise<{
  url: string;
  requests: string[];
  args: string[];
  close(): Promise<void>;
}>;
export type ElementReference = Record<string, string>;
export class WebDriverError extends Error {
  error: string;
}
export function keyActions(combo: string): Array<{ type: string; value: string }>;
export class WebDriverSession {
  static create(
    driverUrl: string,
    capabilities: unknown,
    options?: { commandTimeoutMs?: number; newSessionTimeoutMs?: number },
  ): Promise<WebDriverSession>;
  static webkit(
    driverUrl: string,
    options?: { gesture?: boolean; proxyArgs?: string[]; commandTimeoutMs?: number; newSessionTimeoutMs?: number },
  ): Promise<WebDriverSession>;
  id: string;
  /** How long a command may take before the session counts as stuck (default 90 s). */
  commandTimeoutMs: number;
  stuck: boolean;
  command(method: string, path: string, body?: unknown): Promise<any>;
  goto(url: string): Promise<void>;
  url(): Promise<string>;
  execute(script: string, args?: unknown[]): Promise<any>;
  executeAsync(body: string, args?: unknown[]): Promise<any>;
  setViewport(size: { width: number; height: number }): Promise<void>;
  press(combo: string): Promise<void>;
  type(text: string): Promise<void>;
  keyDown(key: string): Promise<void>;
  keyUp(key: string): Promise<void>;
  click(element: ElementReference): Promise<void>;
  tap(element: ElementReference): Promise<void>;
  clear(element: ElementReference): Promise<void>;
  sendKeysTo(element: ElementReference, text: string): Promise<void>;
  close(): Promise<void>;
}
export const WEBDRIVER_ELEMENT: string;
