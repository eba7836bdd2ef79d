import type { DroppedValues } from '@backsignal/contracts';

/**
 * Values that cannot be used, per field and reason. A warning, not a correction: the events are still sent, but
 * without these values Meta matches fewer of them to people.
 */
export function DroppedValuesNotice({ drops, rows }: { drops: readonly DroppedValues[]; rows: number }) {
  if (!drops.length) return null;
  return (
    <section
      aria-labelledby="dropped-title"
      className="rounded-2xl bg-amber-50 px-5 py-4 ring-1 ring-inset ring-amber-300"
    >
      <h2 id="dropped-title" className="text-base font-semibold text-amber-900">
        Some values can't be used ({rows.toLocaleString()} {rows === 1 ? 'row' : 'rows'})
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm break-words text-amber-900">
        {drops.map((d) => (
          <li key={`${d.field} ${d.reason}`}>{d.message}</li>
        ))}
      </ul>
      <p className="mt-2 text-sm text-amber-900">
        These events are still sent, without those values, so Meta can match fewer of them to people. Fix them
        in your file and upload the corrected CSV to send them in full.
      </p>
    </section>
  );
}
