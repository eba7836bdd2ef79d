const LABELS: Record<number, string> = { 2: 'Map Fields', 3: 'Validate Data', 4: 'Send Data', 5: 'Sent' };

/** Spec §2: a floating pill 'Step {n} of 5' with an optional label after a bullet. */
export function StepIndicator({
  step,
  total = 5,
  label = LABELS[step],
}: {
  step: number;
  total?: number;
  label?: string;
}) {
  return (
    // Just below the sticky header, whose height grows when it wraps on a phone (useHeaderHeight).
    <div className="pointer-events-none sticky top-[var(--header-height,4rem)] z-20 flex justify-center">
      {/* No aria-label: it is not allowed on a paragraph and screen readers skip it; the text says it all. */}
      <p className="pointer-events-auto rounded-full bg-slate-900 px-4 py-1.5 text-xs font-semibold text-white shadow-lg">
        Step {step} of {total}
        {label && (
          <span className="font-normal text-slate-300">
            <span aria-hidden> •</span> {label}
          </span>
        )}
      </p>
    </div>
  );
}
