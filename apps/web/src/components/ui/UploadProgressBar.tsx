import { uploadProgressText, type UploadProgress } from '../../lib/upload.ts';

/** The bytes of a file upload sent so far, for the drop zone it was dropped on. */
export function UploadProgressBar({ progress }: { progress: UploadProgress | null }) {
  const pct = progress && progress.total > 0 ? Math.floor((progress.loaded / progress.total) * 100) : 0;
  const text = uploadProgressText(progress);
  return (
    <div className="w-full max-w-md">
      <p className="text-base font-semibold text-slate-900">{text}</p>
      <div
        className="mt-3 h-2 w-full overflow-hidden rounded-full bg-slate-100"
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={text}
      >
        <div className="h-full rounded-full bg-brand-600 transition-all" style={{ width: `${pct}%` }} />
      </div>
    </div>
  );
}
