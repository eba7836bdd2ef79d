/**
 * A Purchase with a negative value: a refund or a return written into the orders export. Meta documents `value`
 * only as a number and says nothing of negatives (docs/decisions/0098), so such a row is neither an error nor
 * sent silently: the user chooses per file whether to skip or send them.
 */
export function isRefundRow(effectiveRow: Readonly<Record<string, string>>): boolean {
  if (effectiveRow.event_name !== 'Purchase') return false;
  const v = effectiveRow.value;
  return v !== undefined && v.startsWith('-') && Number(v) < 0;
}

/** What to do with a file's refund rows: `ask` until the user chooses (nothing is sent while it stands). */
export type RefundChoice = 'ask' | 'skip' | 'send';
