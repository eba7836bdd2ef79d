import { Button } from '../../components/ui/Button.tsx';

/**
 * The opt-in beside the spec's block (docs/decisions/0055): send the rows without errors now, and fix the
 * others later from their download.
 */
export function SkipErrorsOffer({
  errorRows,
  chosen,
  busy,
  onSkip,
  onDownload,
}: {
  errorRows: number;
  chosen: boolean;
  busy: boolean;
  onSkip: () => void;
  onDownload: () => void;
}) {
  const n = errorRows.toLocaleString();
  const rows = errorRows === 1 ? 'row' : 'rows';
  return (
    <section
      aria-labelledby="skip-errors-title"
      className="rounded-2xl bg-white px-5 py-4 ring-1 ring-inset ring-red-200"
    >
      <h2 id="skip-errors-title" className="text-base font-semibold text-slate-900">
        {chosen ? `The ${n} ${rows} with errors will be skipped` : `Can't fix them now?`}
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {chosen
          ? 'Every other row is sent. Download the skipped rows with their reasons to fix and send them later.'
          : `Send every other row now and leave out the ${n} ${rows} with errors. You can download them with their reasons, fix them and send them later.`}
      </p>
      <div className="mt-3 flex flex-wrap gap-3">
        {!chosen && (
          <Button variant="secondary" onClick={onSkip} disabled={busy}>
            Skip the {n} {rows} with errors and continue
          </Button>
        )}
        <Button variant="ghost" className="text-brand-700" onClick={onDownload}>
          Download the {rows} with errors
        </Button>
      </div>
    </section>
  );
}
