// Loads Cloudflare Turnstile only when a deployment asks for a captcha, and renders one challenge.

interface TurnstileApi {
  render(
    container: HTMLElement,
    options: {
      sitekey: string;
      callback: (token: string) => void;
      'error-callback'?: () => void;
      'expired-callback'?: () => void;
      theme?: 'light' | 'dark' | 'auto';
      language?: string;
    },
  ): string;
  remove(widgetId: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

export const turnstileConfig = {
  scriptUrl: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
  timeoutMs: 15000,
};

let loading: Promise<TurnstileApi> | null = null;

export function loadTurnstile(): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  loading ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = turnstileConfig.scriptUrl;
    script.async = true;
    const timer = setTimeout(() => reject(new Error('Turnstile timed out')), turnstileConfig.timeoutMs);
    script.addEventListener('load', () => {
      clearTimeout(timer);
      if (window.turnstile) resolve(window.turnstile);
      else reject(new Error('Turnstile did not start'));
    });
    script.addEventListener('error', () => {
      clearTimeout(timer);
      reject(new Error('Turnstile could not load'));
    });
    document.head.append(script);
  }).catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}
