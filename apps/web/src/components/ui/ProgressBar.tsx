/** A thin bar filled to `percent`, announced as a progressbar with `label` (and `valueText` when given). */
export function ProgressBar({
  label,
  percent,
  valueText,
  warn = false,
  className = '',
}: {
  label: string;
  percent: number;
  valueText?: string;
  /** Amber instead of the brand colour (a send with failures). */
  warn?: boolean;
  className?: string;
}) {
  return (
    <div
      className={`h-2 w-full overflow-hidden rounded-full bg-slate-100 ${className}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={valueText}
    >
      <div
        className={`h-full rounded-full ${warn ? 'bg-amber-500' : 'bg-brand-600'} transition-all`}
        style={{ width: `${percent}%` }}
      />
    </div>
  );
}
