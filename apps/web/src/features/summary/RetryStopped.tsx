import { useState, type FormEvent } from 'react';
import { Link } from '../../lib/ws-router.tsx';
import { useQueryClient } from '@tanstack/react-query';
import type { DeliverySummary } from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { SecretField } from '../../components/ui/SecretField.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { useCan } from '../../lib/workspace.tsx';
import { summaryApi } from './summary-api.ts';

const TOKEN_NEEDED = 'Paste the new access token first.';

/**
 * The way on from a send Meta stopped (docs/decisions/0099). A refused token is replaced right here and the
 * send retried with one button; after a permission or pixel stop, fixed on Pixel Accounts, one button retries.
 * Either way only the events the pixel has not received go, with their own event IDs. The token is write-only
 * (decision 0016): typed here, saved to the account, never shown back.
 */
export function RetryStopped({ summary, fileId }: { summary: DeliverySummary; fileId: string }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const canRetry = useCan('member');
  const canReplaceToken = useCan('admin');
  const accountId = summary.pixelAccount.accountId;
  if (!summary.retry?.allowed || !accountId || !canRetry) return null;
  const byToken = summary.stopReason === 'token';
  // A member retries, but the token is an admin's to replace.
  if (byToken && !canReplaceToken)
    return (
      <p className="mt-4 rounded-xl bg-white p-4 text-sm text-slate-700 ring-1 ring-inset ring-slate-200">
        Meta refused the pixel account's token. Ask an owner or admin of the workspace to save a new token on
        Pixel Accounts; then retry here: Backsignal sends only the events not delivered.
      </p>
    );
  // Refused batches count as failed, so "remaining" is not what a retry sends: every planned event not sent is.
  const total = summary.progress.totalEvents;
  const left = total === null ? null : Math.max(0, total - summary.totalSent);
  const what = left ? `the ${left.toLocaleString()} events not delivered` : 'the events not delivered yet';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    if (byToken && !token.trim()) return setProblem(TOKEN_NEEDED);
    setBusy(true);
    setProblem(null);
    try {
      if (byToken) await summaryApi.replaceToken(accountId, token.trim());
      setToken('');
      await summaryApi.retry(fileId);
      await queryClient.invalidateQueries({ queryKey: ['summary', fileId] });
    } catch (err) {
      setProblem(errorMessage(err, 'The send could not be retried. Please try again.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={(e) => void submit(e)}
      aria-labelledby="retry-heading"
      className="mt-4 space-y-3 rounded-xl bg-white p-4 text-sm ring-1 ring-inset ring-slate-200"
    >
      <h2 id="retry-heading" className="text-base font-semibold text-slate-900">
        {byToken ? 'Replace the token and retry' : 'Retry once it is fixed'}
      </h2>
      <p className="text-slate-700">
        {byToken
          ? `Paste a new access token for ${summary.pixelAccount.name || 'this pixel account'}. Backsignal saves it to the account and sends ${what}, with the same event IDs, so Meta counts none twice.`
          : `Once the pixel account is fixed on Pixel Accounts, retry: Backsignal sends ${what}, with the same event IDs, so Meta counts none twice.`}
      </p>
      {byToken && (
        <SecretField
          label="New access token"
          value={token}
          onChange={(e) => {
            setToken(e.target.value);
            if (problem === TOKEN_NEEDED) setProblem(null);
          }}
          error={problem === TOKEN_NEEDED ? problem : undefined}
          hint="Events Manager → Settings → Conversions API → Generate access token."
        />
      )}
      {problem && problem !== TOKEN_NEEDED && (
        <p role="alert" className="text-red-700">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={busy}>
          {busy ? 'Retrying…' : byToken ? 'Replace token and retry' : 'Retry the send'}
        </Button>
        <Link to="/pixel-accounts" className="font-medium text-brand-700 hover:underline">
          Open Pixel Accounts
        </Link>
      </div>
    </form>
  );
}
