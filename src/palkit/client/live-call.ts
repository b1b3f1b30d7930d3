// A live call survives a full reload of its tab: while it is live, the conversation to rejoin is kept in
// sessionStorage (this tab only; another tab starts its own call) and forgotten when the call ends.
// The service admits the returning visitor with the same meeting token and closes the old connection.
import type { StartResponse } from '../../protocol/public.js';

export type LiveCall = Pick<StartResponse, 'conversation_id' | 'conversation_url' | 'meeting_token'>;

/** A reload long after the visitor left finds the room ended anyway; this only bounds what is kept. */
const MAX_AGE_MS = 6 * 60 * 60 * 1000;
const key = (deploymentId: string) => `palkit:live-call:${deploymentId}`;

/**
 * This load of the page. Only a call kept by an earlier load is rejoined: a second element of the same
 * deployment on this page (or one re-added) starts its own conversation instead of taking the call over.
 */
export const thisPageLoad = { id: String(globalThis.performance?.timeOrigin ?? '') };

function storage(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null;
  } catch {
    return null; // storage blocked (sandboxed frame, privacy settings): no rejoin
  }
}

export function rememberLiveCall(deploymentId: string, call: LiveCall): void {
  try {
    storage()?.setItem(key(deploymentId), JSON.stringify({ ...pick(call), saved_at: Date.now(), page_load: thisPageLoad.id }));
  } catch {
    // quota or blocked: the call goes on, a reload just will not rejoin it
  }
}

export function recallLiveCall(deploymentId: string): LiveCall | null {
  const raw = storage()?.getItem(key(deploymentId));
  if (!raw) return null;
  try {
    const saved = JSON.parse(raw) as Partial<LiveCall> & { saved_at?: number; page_load?: string };
    if (saved.page_load === thisPageLoad.id) return null; // this page's own call, live in another element
    const fresh = typeof saved.saved_at === 'number' && Date.now() - saved.saved_at < MAX_AGE_MS;
    if (
      fresh &&
      typeof saved.conversation_id === 'string' &&
      typeof saved.conversation_url === 'string' &&
      typeof saved.meeting_token === 'string'
    )
      return pick(saved as LiveCall);
  } catch {
    // unreadable: forget it below
  }
  forgetLiveCall(deploymentId);
  return null;
}

export function forgetLiveCall(deploymentId: string): void {
  try {
    storage()?.removeItem(key(deploymentId));
  } catch {
    // nothing kept
  }
}

const pick = (call: LiveCall): LiveCall => ({
  conversation_id: call.conversation_id,
  conversation_url: call.conversation_url,
  meeting_token: call.meeting_token,
});
