import type { ButtonHTMLAttributes, Ref } from 'react';

/** `danger` confirms a destructive action (in its dialog); `danger-outline` opens that confirmation. */
type Variant = 'primary' | 'secondary' | 'danger' | 'danger-outline' | 'ghost';

const VARIANTS: Record<Variant, string> = {
  primary: 'bg-brand-600 text-white hover:bg-brand-700 disabled:bg-brand-600/50',
  secondary:
    'bg-white text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:text-slate-400',
  danger: 'bg-red-600 text-white hover:bg-red-700 disabled:bg-red-600/50',
  'danger-outline':
    'bg-white text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50 disabled:text-red-300 disabled:ring-red-100',
  ghost: 'text-slate-700 hover:bg-slate-100 disabled:text-slate-400',
};

/** A text colour in `extra` (text-red-700, text-brand-700) replaces the ghost's grey: both in one class list, the grey won. */
const TEXT_COLOUR = /(^|\s)text-[a-z]+-\d{2,3}(\s|$)/;

export const buttonClass = (variant: Variant = 'primary', extra = '') => {
  const look =
    variant === 'ghost' && TEXT_COLOUR.test(extra)
      ? VARIANTS.ghost.replace('text-slate-700 ', '')
      : VARIANTS[variant];
  return `inline-flex items-center justify-center gap-2 rounded-lg px-4 py-2 text-sm font-semibold transition-colors disabled:cursor-not-allowed ${look} ${extra}`;
};

export function Button({
  variant = 'primary',
  className = '',
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; ref?: Ref<HTMLButtonElement> }) {
  return <button type={type} className={buttonClass(variant, className)} {...props} />;
}
