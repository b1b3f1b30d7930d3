// canvas.scheduling_embed: the PAL's Calendly page in an iframe (https URLs only, checked by the schema).
// A booking is reported by Calendly with a `calendly.event_scheduled` postMessage from its origin.
import { html } from 'lit';
import { canvasValueLimits, type SchedulingEmbedArgs } from '../../../../protocol/canvas.js';
import type { CardContext } from './card-context.js';

export const calendlyOrigin = 'https://calendly.com';

export function embedUrl(args: SchedulingEmbedArgs, embedDomain: string): string {
  const url = new URL(args.scheduling_url);
  url.searchParams.set('embed_domain', embedDomain);
  url.searchParams.set('embed_type', 'Inline');
  return url.href;
}

/** The submit value of a Calendly message, or null when it is not a booking. */
export function bookingFrom(data: unknown): { event_uri?: string; invitee_uri?: string } | null {
  if (typeof data !== 'object' || data === null || (data as { event?: unknown }).event !== 'calendly.event_scheduled') return null;
  const payload = (data as { payload?: { event?: { uri?: unknown }; invitee?: { uri?: unknown } } }).payload;
  const eventUri = payload?.event?.uri;
  const inviteeUri = payload?.invitee?.uri;
  return {
    ...(typeof eventUri === 'string' ? { event_uri: eventUri.slice(0, canvasValueLimits.schedulingUri) } : {}),
    ...(typeof inviteeUri === 'string' ? { invitee_uri: inviteeUri.slice(0, canvasValueLimits.schedulingUri) } : {}),
  };
}

export function renderScheduling(ctx: CardContext<SchedulingEmbedArgs>) {
  return html`<iframe
    class="scheduling"
    src=${embedUrl(ctx.args, location.hostname || 'localhost')}
    title=${ctx.args.title ?? ctx.t('canvas.schedulingTitle')}
    referrerpolicy="strict-origin-when-cross-origin"
    sandbox="allow-scripts allow-same-origin allow-forms allow-popups allow-popups-to-escape-sandbox"
  ></iframe>`;
}
