import { useEffect, useRef, useState } from 'react';
import { api } from '../../lib/api.ts';
import { usePublicConfig } from '../../lib/public-config.ts';

declare global {
  interface Window {
    turnstile?: {
      render(
        el: HTMLElement,
        opts: { sitekey: string; callback: (t: string) => void; 'expired-callback': () => void },
      ): string;
      reset(id?: string): void;
    };
  }
}

/**
 * Cloudflare Turnstile when keys are configured, else the development captcha (a checkbox that fetches a
 * signed single-use token the server verifies the same way). `resetKey` changes force a fresh token.
 *
 * Like Turnstile's widget, the development box shows ticked only once it holds a token: ticked at the click,
 * it told a quick visitor (or a browser test) the captcha was done while the token was still on its way, and
 * their submit got 'Please complete the captcha.' next to a ticked box.
 */
export function Captcha({ onToken, resetKey }: { onToken: (token: string) => void; resetKey: number }) {
  const { captchaMode, captchaSiteKey } = usePublicConfig();
  const box = useRef<HTMLDivElement>(null);
  const widget = useRef<string | null>(null);
  const [checked, setChecked] = useState(false);
  const [verifying, setVerifying] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setChecked(false);
    onToken('');
    if (captchaMode !== 'turnstile' || !captchaSiteKey || !box.current) return;
    const el = box.current;
    const render = () => {
      // A reset asks Turnstile for a new token in the same widget; the first run renders it.
      if (widget.current && window.turnstile) return window.turnstile.reset(widget.current);
      el.innerHTML = '';
      widget.current =
        window.turnstile?.render(el, {
          sitekey: captchaSiteKey,
          callback: onToken,
          'expired-callback': () => onToken(''),
        }) ?? null;
    };
    if (window.turnstile) render();
    else {
      const s = document.createElement('script');
      s.src = 'https://challenges.cloudflare.com/turnstile/v0/api.js';
      s.async = true;
      s.onload = render;
      document.head.appendChild(s);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- re-render only when the form asks for a reset
  }, [resetKey, captchaMode, captchaSiteKey]);

  if (captchaMode === 'off') return null;
  if (captchaMode === 'turnstile') return <div ref={box} />;
  return (
    <div className="flex w-fit items-center gap-3 rounded-lg border border-slate-300 bg-slate-50 px-4 py-3">
      <input
        id={`captcha-${resetKey}`}
        type="checkbox"
        className="h-5 w-5"
        checked={checked}
        onChange={async (e) => {
          // Not disabled while verifying: a focused control that becomes disabled drops keyboard focus.
          if (!e.target.checked || verifying) return;
          setVerifying(true);
          try {
            const { token } = await api<{ token: string }>('/api/captcha/dev');
            setError(null);
            setChecked(true);
            onToken(token);
          } catch {
            setError('The captcha could not load. Try again.');
          } finally {
            setVerifying(false);
          }
        }}
      />
      <label htmlFor={`captcha-${resetKey}`} className="text-sm text-slate-700">
        I'm not a robot <span className="text-xs text-slate-600">(development captcha)</span>
      </label>
      {verifying && <span className="text-xs text-slate-600">Verifying...</span>}
      {error && <span className="text-xs text-red-700">{error}</span>}
    </div>
  );
}
