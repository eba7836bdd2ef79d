import { useEffect, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import { Link, useNavigate } from '../../lib/ws-router.tsx';
import { useQuery } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import type { DeliverySummary } from '@backsignal/contracts';
import { StepIndicator } from '../../components/StepIndicator.tsx';
import { buttonClass } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { ApiError } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { track } from '../../lib/track.ts';
import { atLeast } from '../workflow/workflow-api.ts';
import { BatchList } from './BatchList.tsx';
import { FailureGroups } from './FailureGroups.tsx';
import { Progress } from './Progress.tsx';
import { RetryStopped } from './RetryStopped.tsx';
import { SkippedErrorRows } from '../submit/SkippedErrorRows.tsx';
import { SkippedRefundRows } from '../submit/SkippedRefundRows.tsx';
import { POLL_MS, summaryApi } from './summary-api.ts';

interface SendState {
  selectedAccountId?: string;
  testEventCode?: string;
  skipDelivered?: boolean;
}

const NOT_READY = 'Cannot submit: data not in the right state';
/** The server refused because the file is not (or no longer) in a state to send or summarise. */
const notReady = (err: unknown) => err instanceof ApiError && err.code === 'INVALID_STATE';

/**
 * /summary?fileId (spec §2, §4): a prepared file is sent (once) with the choices made on /submit; a submitted
 * file shows its run, live while it is still sending. The send runs on the server, so closing the window is fine.
 */
export function SummaryPage() {
  usePageMeta({ title: 'Summary | Backsignal' });
  const [params] = useSearchParams();
  const fileId = params.get('fileId') ?? '';
  const navigate = useNavigate();
  const state = useLocation().state as SendState | null;
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const sending = useRef(false);
  // Set while a run is known to be going (seen running, or just started here) and its end not yet announced:
  // a short send can be over before the first poll ever sees it running.
  const awaitingEnd = useRef(false);

  const file = useQuery({
    queryKey: ['summary-file', fileId],
    queryFn: () => summaryApi.file(fileId),
    enabled: !!fileId,
    retry: false,
    gcTime: 0,
  });

  useEffect(() => {
    if (!fileId) {
      navigate('/dashboard', { replace: true });
      return;
    }
    if (file.isError) {
      toast.error(errorMessage(file.error, 'Failed to fetch uploaded file.'));
      navigate('/dashboard', { replace: true });
      return;
    }
    const status = file.data?.status;
    if (!status || status === 'submitted' || sending.current) return;
    if (status !== 'prepared') {
      toast.error(NOT_READY);
      navigate('/dashboard', { replace: true });
      return;
    }
    if (!state?.selectedAccountId) {
      toast.error('Please select or save an account first');
      navigate(`/submit?fileId=${fileId}`, { replace: true });
      return;
    }
    // A ref, not state: React may run this effect twice, and a second POST must never go out.
    sending.current = true;
    summaryApi
      .send(fileId, {
        selectedAccountId: state.selectedAccountId,
        testEventCode: state.testEventCode || null,
        skipDelivered: state.skipDelivered ?? true,
      })
      .then(() => {
        // Drop the send choices from history: reloading this page must not try to send again.
        navigate(`/summary?fileId=${fileId}`, { replace: true, state: null });
        toast.success('File marked as submitted');
        awaitingEnd.current = true;
        setSent(true);
      })
      .catch((err: unknown) => {
        // Spec §8: not in the right state is a toast and the dashboard, not the Error page.
        if (notReady(err)) {
          toast.error(NOT_READY);
          navigate('/dashboard', { replace: true });
          return;
        }
        toast.error('Submission failed');
        setFailure(errorMessage(err, 'Submission failed'));
      });
  }, [fileId, file.isError, file.error, file.data?.status, state, navigate]);

  const ready = file.data?.status === 'submitted' || sent;
  const summary = useQuery({
    queryKey: ['summary', fileId],
    // Spec §9: a progress indicator stays at least 300 ms, so 'Sending…' never just flickers.
    queryFn: () => atLeast(300, summaryApi.summary(fileId)),
    enabled: ready,
    refetchInterval: (q) =>
      q.state.data?.status === 'running' || (q.state.error && !notReady(q.state.error)) ? POLL_MS : false,
    retry: (n, err) => !notReady(err) && n < 2,
  });

  const summaryNotReady = summary.isError && notReady(summary.error);
  useEffect(() => {
    if (!summaryNotReady) return;
    toast.error(NOT_READY);
    navigate('/dashboard', { replace: true });
  }, [summaryNotReady, navigate]);

  const status = summary.data?.status;
  useEffect(() => {
    if (status === 'running') awaitingEnd.current = true;
    else if (status && awaitingEnd.current) {
      awaitingEnd.current = false;
      // The toast says what the card says: green only when nothing failed. A stopped run's card says why.
      if (status === 'completed') toast.success('Submission complete!');
      else if (status === 'completed_with_errors')
        toast.warning('Completed with errors: some events failed. See why below.');
      track('submission_completed', { status });
    }
  }, [status]);

  if (failure) return <ErrorPage message={failure} />;
  if (summary.isError && !summary.data && !summaryNotReady)
    return <ErrorPage message={errorMessage(summary.error, 'Submission failed')} />;

  return (
    <div className="mx-auto max-w-4xl px-4 pb-16 sm:px-6">
      <StepIndicator step={5} />
      {!summary.data ? (
        <Card className="mt-8">
          <Spinner label="Sending…" />
        </Card>
      ) : summary.data.status === 'running' ? (
        <Running summary={summary.data} fileId={fileId} fileName={file.data?.fileName ?? ''} />
      ) : (
        <Result summary={summary.data} fileId={fileId} fileName={file.data?.fileName ?? ''} />
      )}
    </div>
  );
}

interface RunProps {
  summary: DeliverySummary;
  fileId: string;
  fileName: string;
}

function Running({ summary, fileId, fileName }: RunProps) {
  return (
    <>
      <Card className="mt-8">
        <div className="flex items-center gap-3">
          <span
            className="h-5 w-5 animate-spin rounded-full border-2 border-slate-300 border-t-brand-600"
            aria-hidden
          />
          <h1 className="text-xl font-semibold text-slate-900">Sending…</h1>
        </div>
        <SafeToClose />
        <div aria-live="polite">
          <Progress summary={summary} />
        </div>
        <SkippedErrorRows fileId={fileId} count={summary.errorRowsSkipped ?? 0} />
        <SkippedRefundRows count={summary.refundRowsSkipped ?? 0} />
        <AccountLine summary={summary} />
      </Card>
      <FailureGroups summary={summary} fileId={fileId} fileName={fileName} />
      <BatchList summary={summary} fileId={fileId} />
    </>
  );
}

/**
 * The send runs on the server (a background job), so the spec's "don't close this window" would keep people
 * waiting for nothing: this says the opposite, and where to find the result (see docs/decisions/0060).
 */
export function SafeToClose() {
  return (
    <p className="mt-2 text-sm text-slate-600">
      This may take a minute. <span className="font-medium text-slate-800">Safe to close this window:</span>{' '}
      the send runs on our server, and the Dashboard shows the result when it is done.
    </p>
  );
}

function Result({ summary, fileId, fileName }: RunProps) {
  const ok = summary.status === 'completed';
  return (
    <>
      <Card className="mt-8">
        <div className="flex items-start gap-3">
          <span
            aria-hidden
            className={`mt-0.5 flex h-8 w-8 shrink-0 items-center justify-center rounded-full text-lg font-bold ${ok ? 'bg-green-100 text-green-700' : 'bg-amber-100 text-amber-700'}`}
          >
            {ok ? '✓' : '!'}
          </span>
          <div className="min-w-0">
            <h1 className="text-xl font-semibold text-slate-900">
              {ok ? 'Submission Successful' : 'Completed with Errors'}
            </h1>
            <p className="mt-1 text-sm text-slate-600">
              {summary.totalSent.toLocaleString()} events sent
              {summary.totalFailed ? `, ${summary.totalFailed.toLocaleString()} failed` : ''}
              {summary.progress.eventsSkipped
                ? `, ${summary.progress.eventsSkipped.toLocaleString()} skipped (already delivered to this pixel)`
                : ''}
              .
            </p>
          </div>
        </div>
        {summary.status === 'stopped' && summary.stopExplanation && (
          <div role="alert" className="mt-4 rounded-xl bg-red-50 p-4 text-sm ring-1 ring-inset ring-red-200">
            <p className="font-semibold text-red-900">Sending stopped: {summary.stopExplanation.title}</p>
            <p className="mt-1 text-red-800">{summary.stopExplanation.explanation}</p>
            <p className="mt-1 text-red-800">
              <span className="font-medium">How to fix it:</span> {summary.stopExplanation.fix}
            </p>
            {summary.progress.eventsRemaining === null ? (
              // The file's repeated rows and events already delivered are only known once it was read to the end.
              <p className="mt-1 text-red-800">
                Sending stopped before the whole file was read, so Backsignal did not count how many events
                were not sent.
              </p>
            ) : summary.progress.eventsRemaining ? (
              <p className="mt-1 text-red-800">
                {summary.progress.eventsRemaining.toLocaleString()} events were not sent.
              </p>
            ) : null}
          </div>
        )}
        {summary.status === 'stopped' && <RetryStopped summary={summary} fileId={fileId} />}
        {summary.retry?.isRetry && (
          <p className="mt-4 text-sm text-slate-600">
            This send retried one Meta had stopped: that send delivered{' '}
            {summary.retry.sentBefore.toLocaleString()} events, left out here, and this one sent the events
            still missing.
          </p>
        )}
        <Progress summary={summary} />
        <SkippedErrorRows fileId={fileId} count={summary.errorRowsSkipped ?? 0} />
        <SkippedRefundRows count={summary.refundRowsSkipped ?? 0} />
        <AccountLine summary={summary} />
      </Card>
      <FailureGroups summary={summary} fileId={fileId} fileName={fileName} />
      <BatchList summary={summary} fileId={fileId} />
      <div className="mt-6 flex justify-end">
        <Link to="/dashboard" className={buttonClass('primary')}>
          Back to Dashboard
        </Link>
      </div>
    </>
  );
}

function AccountLine({ summary }: { summary: DeliverySummary }) {
  return (
    <dl className="mt-4 grid gap-2 text-sm sm:grid-cols-2">
      <div>
        <dt className="text-slate-500">Pixel account</dt>
        <dd className="font-medium text-slate-900">
          {summary.pixelAccount.name || 'Unnamed account'}{' '}
          <span className="font-normal text-slate-500">({summary.pixelAccount.pixelId})</span>
        </dd>
      </div>
      <div>
        <dt className="text-slate-500">Test event code</dt>
        <dd className="font-medium text-slate-900">{summary.testEventCode ?? 'None (live events)'}</dd>
      </div>
    </dl>
  );
}

function ErrorPage({ message }: { message: string }) {
  return (
    <div className="mx-auto max-w-xl px-4 py-16">
      <Card role="alert">
        <h1 className="text-xl font-semibold text-slate-900">Error</h1>
        <p className="mt-2 text-sm text-slate-700">{message}</p>
        <Link to="/dashboard" className={buttonClass('primary', 'mt-6')}>
          Back to Dashboard
        </Link>
      </Card>
    </div>
  );
}
