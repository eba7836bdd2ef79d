import { useRef, useState, type DragEvent, type ReactNode } from 'react';

/** A keyboard-accessible drop zone with a file picker filtered to .csv. */
export function FileDrop({
  onFile,
  disabled,
  children,
}: {
  /** Every file picked or dropped: none, one, or (dropped) several. */
  onFile: (files: readonly File[]) => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (!disabled) onFile([...e.dataTransfer.files]);
  };
  return (
    <div
      role="button"
      tabIndex={0}
      aria-disabled={disabled}
      onClick={() => !disabled && input.current?.click()}
      onKeyDown={(e) =>
        (e.key === 'Enter' || e.key === ' ') && (e.preventDefault(), !disabled && input.current?.click())
      }
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      className={`flex cursor-pointer flex-col items-center justify-center rounded-2xl border-2 border-dashed px-6 py-10 text-center transition-colors ${
        over
          ? 'border-brand-600 bg-brand-50'
          : 'border-slate-300 bg-white hover:border-brand-500 hover:bg-slate-50'
      } ${disabled ? 'cursor-wait opacity-60' : ''}`}
    >
      {children}
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv"
        className="hidden"
        data-testid="file-input"
        onChange={(e) => {
          onFile([...(e.target.files ?? [])]);
          e.target.value = '';
        }}
      />
    </div>
  );
}

// Spec §5 takes one file only and has no text for several: telling someone who dropped two that none was
// selected would say the opposite of what happened.
export const ONE_FILE_ONLY = 'Please upload one CSV file at a time.';

/** Spec §5 client-side upload rules, in order; the message or null. */
export function uploadProblem(files: readonly File[], maxMb: number): string | null {
  if (files.length > 1) return ONE_FILE_ONLY;
  const file = files[0];
  if (!file) return 'No file selected.';
  const typeOk =
    ['text/csv', 'application/vnd.ms-excel'].includes(file.type) ||
    (file.type === '' && file.name.toLowerCase().endsWith('.csv'));
  if (!typeOk) return 'Invalid file type. Please upload a CSV file.';
  if (file.size > maxMb * 1024 * 1024) return `File is too large. Max size is ${maxMb}MB.`;
  return null;
}
