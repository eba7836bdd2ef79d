import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Link, useNavigate } from '../../lib/ws-router.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { StepIndicator } from '../../components/StepIndicator.tsx';
import { Button, buttonClass } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { EMPTY_ACCOUNT_DRAFT, PixelAccountFields } from '../../components/PixelAccountFields.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { download } from '../../lib/api.ts';
import { errorMessage, limitOr } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { track } from '../../lib/track.ts';
import { useCan } from '../../lib/workspace.tsx';
import { atLeast, workflowApi } from '../workflow/workflow-api.ts';
import { ConnectionCheck, testAccount, type TestState } from './ConnectionCheck.tsx';
import {
  DeliveredBefore,
  eventsToSend,
  nothingNew,
  NothingNew,
  useDelivered,
  useSuggestedAccount,
} from './DeliveredBefore.tsx';
import { PreparedPreview } from './PreparedPreview.tsx';
import { JobProgressBar } from '../workflow/JobProgressBar.tsx';
import type { JobProgress } from '../workflow/upload-job.ts';
import { SkippedErrorRows } from './SkippedErrorRows.tsx';
import { SkippedRefundRows } from './SkippedRefundRows.tsx';

const NEW = '__new__';

const NO_ACCOUNT_TOAST = 'no-account';

export function SubmitPage() {
  usePageMeta({ title: 'Send to Meta | Backsignal' });
  const [params] = useSearchParams();
  const fileId = params.get('fileId') ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [accountId, setAccountId] = useState('');
  const [testEventCode, setTestEventCode] = useState(params.get('testEventCode') ?? '');
  const [skipDelivered, setSkipDelivered] = useState(true);
  const [draft, setDraft] = useState(EMPTY_ACCOUNT_DRAFT);
  const [saving, setSaving] = useState(false);
  /** The result of 'Save and test connection', shown beside the account it saved. */
  const [savedTest, setSavedTest] = useState<TestState>(null);
  /** How far the server's prepare job has come (null until it first answers). */
  const [progress, setProgress] = useState<JobProgress | null>(null);

  const prepared = useQuery({
    queryKey: ['prepare', fileId],
    queryFn: async () => {
      let file;
      try {
        file = await workflowApi.file(fileId);
      } catch (err) {
        throw Object.assign(new Error('Unable to check file status.'), { cause: err, goto: '/dashboard' });
      }
      if (file.status !== 'validated' && file.status !== 'prepared')
        throw Object.assign(new Error('File is not ready to be submitted.'), { goto: '/dashboard' });
      try {
        const { totalCount, skippedErrorRows, skippedRefundRows } = await atLeast(
          1000,
          workflowApi.prepare(fileId, setProgress),
        );
        // Spec §8: each move of a file's status is told ('File marked as {status}').
        if (file.status === 'validated') toast.success('File marked as prepared');
        return { file, totalCount, skippedErrorRows, skippedRefundRows };
      } catch (err) {
        throw Object.assign(new Error(errorMessage(err, 'Failed to prepare data')), {
          goto: `/verify-data?fileId=${fileId}`,
        });
      }
    },
    enabled: !!fileId,
    retry: false,
    gcTime: 0,
  });
  const preview = useQuery({
    queryKey: ['preview', fileId],
    queryFn: () => workflowApi.preview(fileId),
    enabled: prepared.isSuccess,
    retry: false,
  });
  const accounts = useQuery({ queryKey: ['accounts'], queryFn: workflowApi.accounts });
  // Adding and testing pixel accounts is an admin's: a member sends with the workspace's accounts.
  const canManage = useCan('admin');
  const chosen = accounts.data?.some((a) => a.id === accountId) ? accountId : null;
  const delivered = useDelivered(fileId, prepared.isSuccess ? chosen : null);

  useEffect(() => {
    if (!fileId) navigate('/dashboard', { replace: true });
    if (prepared.isError) {
      const e = prepared.error as Error & { goto?: string };
      toast.error(e.message);
      navigate(e.goto ?? '/dashboard', { replace: true });
    }
  }, [fileId, prepared.isError, prepared.error, navigate]);
  useEffect(() => {
    if (preview.isError) toast.error('Failed to load preview');
    if (accounts.isError) toast.error("Couldn't load saved accounts");
  }, [preview.isError, accounts.isError]);
  // Preselected: the account last used successfully for a file like this one, never one whose last test or send
  // failed, else none (the user picks). Only until the user chose one (docs/decisions/0099).
  const suggested = useSuggestedAccount(fileId);
  useEffect(() => {
    const id = suggested.data?.accountId;
    if (!accountId && id && accounts.data?.some((a) => a.id === id)) setAccountId(id);
  }, [suggested.data, accounts.data, accountId]);

  const saveAccount = async (andTest = false) => {
    if (!draft.pixelId.trim() || !draft.accessToken.trim())
      return toast.error('Pixel ID and Access Token are required.');
    setSaving(true);
    try {
      const account = await workflowApi.createAccount(draft);
      setSavedTest(null);
      if (andTest) await testAccount(account.id, setSavedTest);
      // The 'select or save an account' error is answered now: it must not follow the user to /summary.
      toast.dismiss(NO_ACCOUNT_TOAST);
      toast.success('Account saved');
      await queryClient.invalidateQueries({ queryKey: ['accounts'] });
      setAccountId(account.id);
      setDraft(EMPTY_ACCOUNT_DRAFT);
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to save account'));
    } finally {
      setSaving(false);
    }
  };

  const send = () => {
    if (!accountId || accountId === NEW)
      return toast.error('Please select or save an account first', { toastId: NO_ACCOUNT_TOAST });
    toast.dismiss(NO_ACCOUNT_TOAST);
    track('submission_started', { events: prepared.data?.totalCount ?? 0, test: !!testEventCode.trim() });
    navigate(`/summary?fileId=${fileId}`, {
      state: { selectedAccountId: accountId, testEventCode: testEventCode.trim(), skipDelivered },
    });
  };

  if (!prepared.data) {
    return (
      <>
        <StepIndicator step={4} />
        <Card className="mt-6">
          <JobProgressBar kind="prepare" progress={progress} />
        </Card>
      </>
    );
  }
  const total = prepared.data.totalCount;
  const shown = preview.data?.previewRows ?? [];
  const account = accounts.data?.find((a) => a.id === accountId);
  // Follows the skip / send-anyway choice for events this pixel already received.
  const toSend = eventsToSend(total, account ? delivered.data : undefined, skipDelivered);
  const nothingToSend = nothingNew(total, account ? delivered.data : undefined, skipDelivered);

  return (
    <>
      <StepIndicator step={4} />
      <section className="mt-6 space-y-6">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Send to Meta</h1>
          <p className="mt-1 text-sm text-slate-600">{prepared.data.file.fileName}</p>
        </div>

        <Card className="border-emerald-200 bg-emerald-50/40">
          <h2 className="text-lg font-semibold text-slate-900">Data Prepared</h2>
          <p className="mt-1 text-3xl font-semibold text-emerald-700">{total.toLocaleString()} events</p>
          <ul className="mt-3 flex flex-wrap gap-2 text-sm">
            {['Normalized', 'Hashed (SHA-256)', 'Formatted for the Conversions API'].map((n) => (
              <li
                key={n}
                className="rounded-full bg-white px-3 py-1 font-medium text-emerald-800 ring-1 ring-inset ring-emerald-200"
              >
                ✓ {n}
              </li>
            ))}
          </ul>
          <SkippedErrorRows fileId={fileId} count={prepared.data.skippedErrorRows} />
          <SkippedRefundRows count={prepared.data.skippedRefundRows ?? 0} />
        </Card>

        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <Card className="space-y-4">
            <h2 className="text-base font-semibold text-slate-900">Pixel account</h2>
            <SelectField label="Send to" value={accountId} onChange={(e) => setAccountId(e.target.value)}>
              {accounts.isPending && <option value="">Loading accounts...</option>}
              {accounts.isError && <option value="">Couldn't load saved accounts</option>}
              {accounts.isSuccess && !accounts.data.length && <option value="">No saved accounts yet</option>}
              {accounts.isSuccess && accounts.data.length > 0 && !chosen && accountId !== NEW && (
                <option value="">Choose a pixel account</option>
              )}
              {accounts.data?.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name || 'Unnamed account'} · {a.pixelId}
                  {a.status === 'reconnect_needed' ? ' (reconnect needed)' : ''}
                </option>
              ))}
              {canManage && <option value={NEW}>+ Save a new account</option>}
            </SelectField>
            {account?.status === 'reconnect_needed' && (
              <p className="text-sm text-amber-700">
                {canManage
                  ? "Meta refused this account's token last time. Update the token on the Pixel Accounts page before sending."
                  : "Meta refused this account's token last time. Ask an owner or admin to update it before sending."}
              </p>
            )}
            {!canManage && accounts.isSuccess && !accounts.data.length && (
              <p className="text-sm text-slate-600">
                This workspace has no pixel account yet. Ask an owner or admin to add one on Pixel Accounts.
              </p>
            )}
            {canManage && (accountId === NEW || (accounts.isSuccess && !accounts.data.length)) && (
              // A form, so Enter in either field saves, as on the Pixel Accounts page.
              <form
                className="space-y-3 rounded-xl bg-slate-50 p-4"
                onSubmit={(e) => {
                  e.preventDefault();
                  if (!saving) void saveAccount();
                }}
              >
                <PixelAccountFields draft={draft} setDraft={setDraft} />
                <div className="flex flex-wrap gap-3">
                  <Button type="submit" disabled={saving}>
                    {saving ? 'Saving...' : 'Save account'}
                  </Button>
                  <Button variant="secondary" disabled={saving} onClick={() => void saveAccount(true)}>
                    Save and test connection
                  </Button>
                </div>
              </form>
            )}
            {account && canManage && <ConnectionCheck accountId={account.id} initial={savedTest} />}
            {account && (
              <DeliveredBefore
                delivered={delivered.data}
                skip={skipDelivered}
                onSkipChange={setSkipDelivered}
              />
            )}
          </Card>

          <Card className="space-y-3">
            <h2 className="text-base font-semibold text-slate-900">Test event code (optional)</h2>
            <TextField
              label="Test event code"
              placeholder="TEST12345"
              value={testEventCode}
              onChange={(e) => setTestEventCode(e.target.value)}
              hint="From Events Manager → Test events. Leave empty to send live events."
            />
            <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-inset ring-amber-200">
              Heads up: Meta processes test events for real. They show in Test Events, but they also count
              towards your pixel's data. Use a separate test pixel if you only want to try things out.
            </p>
          </Card>
        </div>

        <details className="rounded-2xl border border-slate-200 bg-white shadow-sm">
          <summary className="cursor-pointer px-6 py-4 text-base font-semibold text-slate-900">
            {preview.isSuccess ? `Data preview: first ${shown.length} events` : 'Data preview'}
          </summary>
          <div className="border-t border-slate-200 px-6 py-4">
            {preview.isPending ? (
              <Spinner />
            ) : preview.isError ? (
              <div role="alert" className="space-y-3">
                <p className="text-sm text-red-700">Failed to load preview</p>
                <Button variant="secondary" onClick={() => void preview.refetch()}>
                  Try again
                </Button>
              </div>
            ) : (
              <>
                {/* An older server's answer has no details: the table is then empty, the download still whole. */}
                <PreparedPreview
                  details={preview.data.previewDetails ?? []}
                  timeZone={preview.data.timeZone ?? 'UTC'}
                />
                {total > shown.length && (
                  <p className="mt-2 text-sm text-slate-600">
                    …and {(total - shown.length).toLocaleString()} more events
                  </p>
                )}
                <Button
                  variant="secondary"
                  className="mt-3"
                  onClick={() =>
                    download(`/api/uploads/${fileId}/preview/full`, `prepared-${fileId}.json`).catch((err) =>
                      toast.error(limitOr(err, 'Failed to download full preview')),
                    )
                  }
                >
                  Download Full Preview
                </Button>
                <p className="mt-2 text-xs text-slate-500">
                  The download is the JSON sent to Meta, every event, with customer data as SHA-256 hashes.
                </p>
              </>
            )}
          </div>
        </details>

        <div className="flex flex-wrap justify-between gap-3 border-t border-slate-200 pt-4">
          {nothingToSend ? (
            <NothingNew total={total} onSendAnyway={() => setSkipDelivered(false)} />
          ) : (
            <>
              <Link to={`/verify-data?fileId=${fileId}`} className={buttonClass('secondary')}>
                Back to Validation
              </Link>
              <Button onClick={send}>
                Send {toSend.toLocaleString()} {toSend === 1 ? 'event' : 'events'} to Meta
              </Button>
            </>
          )}
        </div>
      </section>
    </>
  );
}
