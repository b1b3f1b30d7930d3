// A stand-in for Cloudflare Turnstile so the captcha gate renders without loading Cloudflare's script:
// a checkbox that "passes" when ticked. The site key `stand-in-unavailable` fails like a blocked script.
// Every challenge it renders is recorded, so a test can pass one by hand (`renders[i].callback(token)`).

type RenderOptions = Parameters<NonNullable<Window['turnstile']>['render']>[1];

export interface StandInTurnstile {
  /** The challenges rendered so far, in order. */
  readonly renders: RenderOptions[];
}

export interface StandInTurnstileOptions {
  /** Draw the checkbox (default); a test that passes challenges by hand leaves the gate's own field alone. */
  checkbox?: boolean;
  /** Runs on each challenge rendered, e.g. to pass it by itself after a moment as a managed one does. */
  onRender?: (options: RenderOptions) => void;
}

/** Puts the stand-in on `window.turnstile` (in place of any before it). */
export function installStandInTurnstile(options: StandInTurnstileOptions = {}): StandInTurnstile {
  const renders: RenderOptions[] = [];
  const boxes = new Map<string, HTMLElement>();
  window.turnstile = {
    render(container, challenge): string {
      renders.push(challenge);
      const id = `stand-in-${renders.length}`;
      if (challenge.sitekey === 'stand-in-unavailable') {
        queueMicrotask(() => challenge['error-callback']?.());
        return id;
      }
      options.onRender?.(challenge);
      if (options.checkbox === false) return id;
      const box = document.createElement('label');
      box.dataset.turnstile = id;
      box.style.cssText =
        'display:inline-flex;gap:10px;align-items:center;padding:14px 18px;border:1px solid #c9c9d1;border-radius:6px;background:#fafafa;color:#222;font:14px system-ui';
      const check = document.createElement('input');
      check.type = 'checkbox';
      check.addEventListener('change', () => check.checked && challenge.callback(`stand-in-token-${id}`));
      box.append(check, 'Verify you are human (stand-in)');
      container.append(box);
      boxes.set(id, box);
      return id;
    },
    remove(id: string): void {
      boxes.get(id)?.remove();
      boxes.delete(id);
    },
  };
  return { renders };
}
