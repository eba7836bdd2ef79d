export function SourceStatus({ status }: { status: 'active' | 'paused' }) {
  return status === 'active' ? (
    <span className="rounded-full bg-green-50 px-2 py-0.5 text-xs font-semibold text-green-700 ring-1 ring-inset ring-green-200">
      Active
    </span>
  ) : (
    <span className="rounded-full bg-amber-50 px-2 py-0.5 text-xs font-semibold text-amber-800 ring-1 ring-inset ring-amber-200">
      Paused
    </span>
  );
}
