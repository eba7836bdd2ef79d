import { ProgressBar } from './ProgressBar.tsx';
import { uploadProgressText, type UploadProgress } from '../../lib/upload.ts';

/** The bytes of a file upload sent so far, for the drop zone it was dropped on. */
export function UploadProgressBar({ progress }: { progress: UploadProgress | null }) {
  const pct = progress && progress.total > 0 ? Math.floor((progress.loaded / progress.total) * 100) : 0;
  const text = uploadProgressText(progress);
  return (
    <div className="w-full max-w-md">
      <p className="text-base font-semibold text-slate-900">{text}</p>
      <ProgressBar className="mt-3" label="Upload progress" percent={pct} valueText={text} />
    </div>
  );
}
