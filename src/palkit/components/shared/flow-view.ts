// The screen a deployment element shows for its session's state and mode, shared by widget, embed and
// landing page: loading → preview → gate → device check → connecting → call → after-call, plus the
// unavailable and error screens.
import { html, type TemplateResult } from 'lit';
import type { RatingBody } from '../../../protocol/rating.js';
import type { PalCaptchaEvent } from '../events/captcha.js';
import type { PalConfirmEvent } from '../events/confirm.js';
import type { PalPasswordEvent } from '../events/password.js';
import type { PalStartEvent } from '../events/start.js';
import type { PalDeploymentElement } from './deployment-element.js';

export interface FlowViewOptions {
  /** Embed `layout` attribute, passed to the preview. */
  layout?: string | null;
}

export function renderFlow(host: PalDeploymentElement, options: FlowViewOptions = {}): TemplateResult {
  const session = host.session;
  const t = host.t;
  const config = host.config;
  const deployment = session?.deployment ?? null;
  const problem = host.attributeProblem;
  if (!session && problem) return html`<pal-error-screen part="screen" .t=${t} code=${problem.code}></pal-error-screen>`;
  if (!session || session.state === 'initializing' || (!deployment && session.state !== 'error'))
    return html`<pal-connecting part="screen" .t=${t} phase="loading"></pal-connecting>`;
  const retry = (): void => void session.retry();
  // The deployment's own terms (not a page override): the service checks the visitor accepted exactly these.
  const consent = deployment?.customization.consent;
  switch (session.mode) {
    case 'unavailable':
      return html`<pal-unavailable part="screen" .t=${t} reason=${session.unavailableReason ?? 'inactive'} @pal-retry=${retry}></pal-unavailable>`;
    case 'ended':
      return html`<pal-ended part="screen" .t=${t} heading=${config.after_call?.title ?? ''} description=${config.after_call?.description ?? ''}
        button-label=${config.after_call?.btn_title ?? ''} redirect-url=${config.after_call?.redirect_url ?? ''} @pal-restart=${retry}
        .rate=${session.conversation?.meeting_token ? (rating: RatingBody) => session.rate(rating) : null}></pal-ended>`;
    case 'haircheck':
      return html`<pal-haircheck part="screen" .t=${t} heading=${config.haircheck?.title ?? ''} description=${config.haircheck?.description ?? ''}
        button-label=${config.haircheck?.btn_title ?? ''} ?camera-on=${config.camera_on ?? true}
        @pal-confirm=${(e: PalConfirmEvent) => session.confirmHaircheck(e.detail)}></pal-haircheck>`;
    case 'call':
      return html`<pal-conversation part="conversation" exportparts="stage, controls, captions, transcript, banner, card, recording, ai-mark, mode-switch, notice" .t=${t} .session=${session}
        .fallbackVideoUrl=${deployment?.thumbnail_video_url ?? null} .fallbackImageUrl=${deployment?.thumbnail_image_url ?? null}></pal-conversation>`;
    default:
      break;
  }
  if (session.state === 'error' && session.error)
    return html`<pal-error-screen part="screen" .t=${t} code=${session.error.code} @pal-retry=${retry}></pal-error-screen>`;
  if (session.state === 'connecting') return html`<pal-connecting part="screen" .t=${t}></pal-connecting>`;
  if (session.gate)
    return html`<pal-gate part="screen" .t=${t} step=${session.gate} error-code=${session.gateError?.code ?? ''}
      site-key=${deployment?.captcha?.site_key ?? ''} theme=${config.theme ?? 'auto'} ?checking=${session.gateChecking}
      @pal-password=${(e: PalPasswordEvent) => session.submitPassword(e.detail.password, e.detail.captchaToken)}
      @pal-captcha=${(e: PalCaptchaEvent) => session.submitCaptcha(e.detail)}
      @pal-captcha-unavailable=${() => session.captchaUnavailable()}></pal-gate>`;
  return html`<pal-preview part="screen" .t=${t} heading=${config.preview?.title ?? ''} description=${config.preview?.description ?? ''}
    button-label=${config.preview?.btn_title ?? ''} video-url=${deployment?.thumbnail_video_url ?? ''}
    image-url=${deployment?.thumbnail_image_url ?? ''} layout=${options.layout ?? ''}
    .consentText=${consent?.required ? (consent.text ?? '') : null} .termsUrl=${consent?.required ? (consent.terms_url ?? null) : null}
    @pal-start=${(e: PalStartEvent) => {
      host.acceptedTerms = e.detail.acceptedTerms;
      void host.startConversation(e.detail.text ? { text: true } : {});
    }}></pal-preview>`;
}
