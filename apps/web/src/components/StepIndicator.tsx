import { createContext, useContext, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';

const LABELS: Record<number, string> = { 2: 'Map Fields', 3: 'Validate Data', 4: 'Send Data', 5: 'Sent' };

/**
 * Where the pill shows: a slot in the app header (AppLayout). Floating below the sticky header, it covered the
 * headings and buttons that scrolled under it; in the header it covers nothing the header does not. Without a
 * slot (a screen rendered on its own) it stays where the screen puts it.
 */
export const StepSlot = createContext<HTMLElement | null>(null);

/** The step the previous screen showed: the next screen's bar moves on from there. */
let lastStep: number | null = null;

/** Spec §9: about 800 ms per step moved, at least 400 ms; no animation on the first screen or the same step. */
export function stepAnimationMs(from: number | null, to: number): number {
  if (from === null || from === to) return 0;
  return Math.max(400, 800 * Math.abs(to - from));
}

/** Spec §2: a pill 'Step {n} of 5' at top centre with an optional label after a bullet, and a bar that moves on. */
export function StepIndicator({
  step,
  total = 5,
  label = LABELS[step],
}: {
  step: number;
  total?: number;
  label?: string;
}) {
  const [from] = useState(() => lastStep ?? step);
  const [shown, setShown] = useState(from);
  const ms = stepAnimationMs(from, step);
  useEffect(() => {
    lastStep = step;
    // One frame at the old width first, so the browser has something to animate from.
    const frame = requestAnimationFrame(() => setShown(step));
    return () => cancelAnimationFrame(frame);
  }, [step]);
  const slot = useContext(StepSlot);
  const pill = (
    // No aria-label: it is not allowed on a paragraph and screen readers skip it; the text says it all.
    <p
      data-testid="step-pill"
      className="whitespace-nowrap rounded-full bg-slate-900 px-4 pb-1 pt-1.5 text-xs font-semibold text-white shadow-sm"
    >
      Step {step} of {total}
      {label && (
        <span className="font-normal text-slate-300">
          <span aria-hidden> •</span> {label}
        </span>
      )}
      <span aria-hidden className="mt-1 block h-0.5 overflow-hidden rounded-full bg-slate-700">
        <span
          data-testid="step-bar"
          className="block h-full rounded-full bg-brand-500 transition-[width] ease-out motion-reduce:transition-none"
          style={{ width: `${(shown / total) * 100}%`, transitionDuration: `${ms}ms` }}
        />
      </span>
    </p>
  );
  return slot ? createPortal(pill, slot) : pill;
}
