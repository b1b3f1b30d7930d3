// Points the deployment elements at a scripted service and an in-memory room.
import '../../../src/palkit/components/define.js';
import { PalDeploymentElement } from '../../../src/palkit/components/shared/deployment-element.js';
import type { InitResponse } from '../../../src/protocol/public.js';
import { initBody, scriptedFetch, startBody } from '../../../stories/support/endpoints.js';
import { StandInTransport } from '../../../stories/support/transport.js';

export function useFakeService(init: Partial<InitResponse> = {}, routes: Parameters<typeof scriptedFetch>[0] = {}) {
  // Each test is a fresh tab: no live call left to rejoin from the one before.
  sessionStorage.clear();
  const service = scriptedFetch({
    '/init': { status: 200, body: initBody(init) },
    '/start': { status: 200, body: startBody() },
    '/gate': { status: 200, body: { gate_pass: 'pass', expires_at: '2030-01-01T00:00:00Z' } },
    '/canvas/interactions': { status: 200, body: { success: true } },
    ...routes,
  });
  const transports: StandInTransport[] = [];
  const fake = { ...service, transports, transportFactoryHook: (_transport: StandInTransport): void => undefined };
  PalDeploymentElement.fetchImpl = service.fetch;
  PalDeploymentElement.transportFactory = () => {
    const transport = new StandInTransport();
    fake.transportFactoryHook(transport);
    transports.push(transport);
    return transport;
  };
  return fake;
}

/** Collects every pal-* event that reaches the document. */
export function recordEvents(types: string[]) {
  const seen: { type: string; detail: unknown }[] = [];
  const listener = (e: Event) => seen.push({ type: e.type, detail: (e as Event & { detail: unknown }).detail });
  for (const type of types) document.addEventListener(type, listener);
  return { seen, stop: () => types.forEach((type) => document.removeEventListener(type, listener)) };
}

export const ALL_EVENTS = [
  'pal-ready',
  'pal-conversation-created',
  'pal-conversation-started',
  'pal-conversation-ended',
  'pal-state-change',
  'pal-mode-change',
  'pal-error',
  'pal-tool-call',
  'pal-protocol-message',
  'pal-canvas-interaction',
];

/**
 * Opens the chat of the pal-conversation inside `root` (or `root` itself) as a visitor does, with the controls'
 * chat toggle: the chat panel renders only while it is shown.
 */
export function openChat(root: Element): void {
  const conversation = root.localName === 'pal-conversation' ? root : deep(root, 'pal-conversation')!;
  deep<HTMLButtonElement>(conversation, 'pal-controls', 'button.toggle-view + button.toggle-view')!.click();
}

/** Element inside nested shadow roots, by a chain of selectors. */
export function deep<T extends Element = HTMLElement>(root: Element, ...selectors: string[]): T | null {
  let node: Element | null = root;
  for (const selector of selectors) {
    node = (node?.shadowRoot ?? node)?.querySelector(selector) ?? null;
  }
  return node as T | null;
}
