import { useEffect, useRef } from 'react';
import { Button } from '../../components/ui/Button.tsx';
import { changeLines, templateChangesHeadline, type TemplateChanges } from './template-changes.ts';

/**
 * What the last template changed, on the page and not only in a toast (issue 29), with an Undo while the mapping
 * is still as the template left it: after any edit, Undo would also throw that edit away.
 */
export function TemplateAppliedNote({
  changes,
  undone,
  canUndo,
  onUndo,
  onDismiss,
}: {
  changes: TemplateChanges;
  undone: boolean;
  canUndo: boolean;
  onUndo: () => void;
  onDismiss: () => void;
}) {
  const box = useRef<HTMLElement>(null);
  // The Undo button that had focus is gone once undone: the note keeps it.
  useEffect(() => {
    if (undone) box.current?.focus();
  }, [undone]);
  const lines = changeLines(changes);
  return (
    <section
      ref={box}
      tabIndex={-1}
      aria-label="Template applied"
      className="rounded-2xl bg-white px-5 py-4 ring-1 ring-inset ring-brand-100 outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      <p role="status" className="text-sm font-semibold text-slate-900">
        {undone
          ? `Template "${changes.name}" undone: the mapping is back to what it was before.`
          : templateChangesHeadline(changes)}
      </p>
      {!undone && lines.length > 0 && (
        <ul className="mt-2 list-disc space-y-0.5 pl-5 text-sm break-words text-slate-700">
          {lines.map((l) => (
            <li key={l}>{l}</li>
          ))}
        </ul>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        {!undone && canUndo && (
          <Button variant="secondary" className="px-3 py-1.5 text-sm" onClick={onUndo}>
            Undo template
          </Button>
        )}
        <Button variant="ghost" className="px-3 py-1.5 text-sm" onClick={onDismiss}>
          Dismiss
        </Button>
      </div>
    </section>
  );
}
