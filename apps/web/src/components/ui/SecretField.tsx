import { useState, type InputHTMLAttributes } from 'react';
import { TextField } from './Field.tsx';

/**
 * A secret being typed (an access token) with Show/Hide, so it can be checked before saving. What is saved is
 * never sent back to the browser (security.md §2.10: the token is write-only), so there is nothing to reveal
 * once saved.
 */
export function SecretField({
  label,
  hint,
  error,
  ...props
}: { label: string; hint?: string; error?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const [shown, setShown] = useState(false);
  return (
    <div className="relative">
      <TextField
        label={label}
        hint={hint}
        error={error}
        type={shown ? 'text' : 'password'}
        autoComplete="off"
        spellCheck={false}
        className="pr-16 font-mono"
        {...props}
      />
      <button
        type="button"
        onClick={() => setShown((s) => !s)}
        aria-label={`${shown ? 'Hide' : 'Show'} ${label}`}
        aria-pressed={shown}
        className="absolute right-2 top-7 rounded px-2 py-1 text-xs font-medium text-slate-600 hover:bg-slate-100"
      >
        {shown ? 'Hide' : 'Show'}
      </button>
    </div>
  );
}
