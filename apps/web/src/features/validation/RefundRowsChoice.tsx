import { Button } from '../../components/ui/Button.tsx';

type Choice = 'ask' | 'skip' | 'send';

/**
 * Purchase rows with a negative value (refunds): never sent nor left out silently (docs/decisions/0098). The
 * user chooses per file; Continue waits for it.
 */
export function RefundRowsChoice({
  count,
  choice,
  busy,
  onChoose,
}: {
  count: number;
  choice: Choice;
  busy: boolean;
  onChoose: (choice: 'skip' | 'send') => void;
}) {
  const n = count.toLocaleString();
  const rows = count === 1 ? 'row' : 'rows';
  return (
    <section
      aria-labelledby="refund-rows-title"
      className="rounded-2xl bg-amber-50 px-5 py-4 ring-1 ring-inset ring-amber-300"
    >
      <h2 id="refund-rows-title" className="text-base font-semibold text-amber-900">
        {n} Purchase {rows} with a negative value (refunds)
      </h2>
      <p className="mt-1 text-sm text-amber-900">
        {choice === 'skip'
          ? `The ${n} ${rows} will be skipped, not sent. The summary says how many.`
          : choice === 'send'
            ? `The ${n} ${rows} will be sent with their negative value. Meta does not document negative purchase values, so reports may not subtract them.`
            : 'Meta does not document negative purchase values: a refund sent as a Purchase may be counted as a sale. Choose what to do with these rows before continuing.'}
      </p>
      <div className="mt-3 flex flex-wrap gap-3" role="group" aria-label="Refund rows">
        <Button
          variant={choice === 'skip' ? 'primary' : 'secondary'}
          aria-pressed={choice === 'skip'}
          disabled={busy}
          onClick={() => onChoose('skip')}
        >
          Skip the {n} refund {rows}
        </Button>
        <Button
          variant={choice === 'send' ? 'primary' : 'secondary'}
          aria-pressed={choice === 'send'}
          disabled={busy}
          onClick={() => onChoose('send')}
        >
          Send them as negative values
        </Button>
      </div>
    </section>
  );
}
