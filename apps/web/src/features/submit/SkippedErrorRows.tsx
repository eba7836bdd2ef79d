import { toast } from 'react-toastify';
import { download } from '../../lib/api.ts';
import { limitOr } from '../../lib/errors.ts';

/** The rows with errors the user chose to leave out (docs/decisions/0055): counted, and downloadable with why. */
export function SkippedErrorRows({ fileId, count }: { fileId: string; count: number }) {
  if (!count) return null;
  return (
    <p className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
      <span>
        {count.toLocaleString()} {count === 1 ? 'row' : 'rows'} with errors skipped, not sent.
      </span>
      <button
        type="button"
        className="font-semibold text-brand-700 underline hover:text-brand-900"
        onClick={() =>
          void download(`/api/uploads/${fileId}/skipped-rows.csv`, 'skipped-rows.csv').catch((err) =>
            toast.error(limitOr(err, 'Could not download the skipped rows.')),
          )
        }
      >
        Download skipped rows
      </button>
    </p>
  );
}
