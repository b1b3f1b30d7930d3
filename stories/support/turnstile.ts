// A stand-in for Cloudflare Turnstile so the captcha gate renders without loading Cloudflare's script:
// a checkbox that "passes" when ticked. The site key `stand-in-unavailable` fails like a blocked script.

interface RenderOptions {
  sitekey: string;
  callback: (token: string) => void;
  'error-callback'?: () => void;
}

export function installStandInTurnstile(): void {
  if (window.turnstile) return;
  let next = 0;
  const boxes = new Map<string, HTMLElement>();
  window.turnstile = {
    render(container: HTMLElement, options: RenderOptions): string {
      const id = `stand-in-${++next}`;
      if (options.sitekey === 'stand-in-unavailable') {
        queueMicrotask(() => options['error-callback']?.());
        return id;
      }
      const box = document.createElement('label');
      box.dataset.turnstile = id;
      box.style.cssText = 'display:inline-flex;gap:10px;align-items:center;padding:14px 18px;border:1px solid #c9c9d1;border-radius:6px;background:#fafafa;color:#222;font:14px system-ui';
      const check = document.createElement('input');
      check.type = 'checkbox';
      check.addEventListener('change', () => check.checked && options.callback(`stand-in-token-${id}`));
      box.append(check, 'Verify you are human (stand-in)');
      container.append(box);
      boxes.set(id, box);
      return id;
    },
    remove(id: string): void {
      boxes.get(id)?.remove();
      boxes.delete(id);
    },
  } as unknown as NonNullable<Window['turnstile']>;
}
