// How a session is set up: the API client, the deployment, the transports, and the settings it reads
// from its element when it needs them.
import type { StartBody } from '../../protocol/public.js';
import type { ApiClient } from './api.js';
import type { TransportFactory } from './transport/select.js';

/** Read by the session when it needs them, so attribute changes before a call are honoured. */
export interface SessionSettings {
  showHaircheck: boolean;
  cameraOn: boolean;
  /** Body fields read at creation: context, greeting, memory stores. */
  startBody(): Omit<StartBody, 'password' | 'captcha_token' | 'gate_pass'>;
  userName?: string;
}

export interface SessionOptions {
  api?: ApiClient;
  deploymentId?: string;
  transportFactory?: TransportFactory;
  settings?: () => SessionSettings;
}

export const defaultSettings = (): SessionSettings => ({ showHaircheck: false, cameraOn: true, startBody: () => ({}) });

/** `…/rooms/{id}` → id; Daily room names otherwise. */
export function conversationIdFromUrl(url: string): string {
  return new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
}
