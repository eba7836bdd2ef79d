import { useState, type InputHTMLAttributes } from 'react';
import { TextField } from '../../components/ui/Field.tsx';

/** A password input with a show/hide toggle; paste and password managers work. */
export function PasswordField(
  props: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; hint?: string },
) {
  const [shown, setShown] = useState(false);
  return (
    <div className="relative">
      <TextField {...props} type={shown ? 'text' : 'password'} className="pr-16" />
      <button
        type="button"
        onClick={() => setShown((s) => !s)}
        className="absolute right-2 top-7 rounded px-2 py-1 text-xs font-medium text-slate-600 hover:bg-slate-100"
        aria-label={shown ? 'Hide password' : 'Show password'}
      >
        {shown ? 'Hide' : 'Show'}
      </button>
    </div>
  );
}
