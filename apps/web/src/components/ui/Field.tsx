import {
  forwardRef,
  useId,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

const control =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-600 focus:outline-none focus:ring-1 focus:ring-brand-600 disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-red-500';

interface FieldProps {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
}

/** The error, or else the hint, is the control's accessible description. */
const describedBy = (id: string, { error, hint }: Pick<FieldProps, 'error' | 'hint'>) =>
  error ? `${id}-error` : hint ? `${id}-hint` : undefined;

/**
 * A required control says so: an asterisk after its label for the eye (hidden from screen readers, which hear
 * the control's aria-required instead), so a visitor knows before sending what the form needs.
 */
function FieldShell({
  id,
  label,
  error,
  hint,
  required,
  children,
}: FieldProps & { id: string; required?: boolean; children: ReactNode }) {
  return (
    <div className="space-y-1">
      <div className="text-sm font-medium text-slate-700">
        <label htmlFor={id}>{label}</label>
        {/* Outside the label, so the field's name stays its label's words. */}
        {required && (
          <span aria-hidden className="ml-0.5 text-red-700">
            *
          </span>
        )}
      </div>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
    </div>
  );
}

export const TextField = forwardRef<HTMLInputElement, FieldProps & InputHTMLAttributes<HTMLInputElement>>(
  function TextField({ label, error, hint, id, className = '', ...props }, ref) {
    const auto = useId();
    const fid = id ?? auto;
    return (
      <FieldShell id={fid} label={label} error={error} hint={hint} required={props.required}>
        <input
          ref={ref}
          id={fid}
          aria-required={props.required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(fid, { error, hint })}
          className={`${control} ${className}`}
          {...props}
        />
      </FieldShell>
    );
  },
);

export const SelectField = forwardRef<
  HTMLSelectElement,
  FieldProps & SelectHTMLAttributes<HTMLSelectElement>
>(function SelectField({ label, error, hint, id, className = '', children, ...props }, ref) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <FieldShell id={fid} label={label} error={error} hint={hint} required={props.required}>
      <select
        ref={ref}
        id={fid}
        aria-required={props.required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fid, { error, hint })}
        className={`${control} ${className}`}
        {...props}
      >
        {children}
      </select>
    </FieldShell>
  );
});

export const TextAreaField = forwardRef<
  HTMLTextAreaElement,
  FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>
>(function TextAreaField({ label, error, hint, id, className = '', ...props }, ref) {
  const auto = useId();
  const fid = id ?? auto;
  return (
    <FieldShell id={fid} label={label} error={error} hint={hint} required={props.required}>
      <textarea
        ref={ref}
        id={fid}
        aria-required={props.required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(fid, { error, hint })}
        className={`${control} ${className}`}
        {...props}
      />
    </FieldShell>
  );
});

/**
 * The key to the asterisks, for a form with optional fields too. Hidden from screen readers: they hear each
 * control's own aria-required.
 */
export function RequiredNote() {
  return (
    <p aria-hidden className="text-xs text-slate-600">
      <span className="text-red-700">*</span> required
    </p>
  );
}
