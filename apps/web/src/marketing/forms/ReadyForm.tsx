import { useId, type FormHTMLAttributes } from 'react';
import { useHydrated } from '../../lib/use-hydrated.ts';

/**
 * A public form whose controls stay disabled until the app has hydrated the prerendered page. Before that
 * the form is plain HTML: what a visitor typed was wiped when React took over, a ticked captcha had no
 * token, and submit sent the form natively as a GET, putting name, email and message in the URL (browser
 * history, server logs; security.md §2.10). These forms cannot work without the app (captcha, JSON API), so
 * they say they are loading rather than accept input they would lose.
 */
export function ReadyForm({ children, ...props }: FormHTMLAttributes<HTMLFormElement>) {
  const ready = useHydrated();
  const note = useId();
  return (
    <form {...props}>
      <fieldset disabled={!ready} aria-describedby={ready ? undefined : note} className="min-w-0 space-y-4">
        {children}
        {!ready && (
          <p id={note} className="text-sm text-slate-600">
            Loading the form...
          </p>
        )}
      </fieldset>
    </form>
  );
}
