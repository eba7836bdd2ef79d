/** Refund rows (negative Purchase values) the user chose to leave out (docs/decisions/0098): counted, never silent. */
export function SkippedRefundRows({ count }: { count: number }) {
  if (!count) return null;
  return (
    <p className="mt-3 text-sm text-slate-700">
      {count.toLocaleString()} refund {count === 1 ? 'row' : 'rows'} (Purchase with a negative value) skipped,
      not sent.
    </p>
  );
}
