import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Link, useNavigate } from '../../lib/ws-router.tsx';
import { toast } from 'react-toastify';
import type { ValidationResponse } from '@backsignal/contracts';
import { StepIndicator } from '../../components/StepIndicator.tsx';
import { Button, buttonClass } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { FileDrop, ONE_FILE_ONLY } from '../../components/ui/FileDrop.tsx';
import { UploadProgressBar } from '../../components/ui/UploadProgressBar.tsx';
import { download } from '../../lib/api.ts';
import type { UploadProgress } from '../../lib/upload.ts';
import { errorMessage, limitOr } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { track } from '../../lib/track.ts';
import { FileIssues } from '../workflow/FileIssues.tsx';
import { JobProgressBar } from '../workflow/JobProgressBar.tsx';
import type { JobProgress } from '../workflow/upload-job.ts';
import { FileNotices } from './FileNotices.tsx';
import { atLeast, workflowApi } from '../workflow/workflow-api.ts';
import { DroppedValuesNotice } from './DroppedValuesNotice.tsx';
import { ReviewTable } from './ReviewTable.tsx';
import { RefundRowsChoice } from './RefundRowsChoice.tsx';
import { SkipErrorsOffer } from './SkipErrorsOffer.tsx';
const HEADER_MISMATCH =
  "Your file headers don't match your mappings. Please reupload a CSV file with the correct headers or return to the mappings page to fix the mappings.";

export function VerifyDataPage() {
  usePageMeta({ title: 'Validate data | Backsignal' });
  const [params] = useSearchParams();
  const fileId = params.get('fileId') ?? '';
  const navigate = useNavigate();
  const [result, setResult] = useState<ValidationResponse | null>(null);
  /** Why the last run failed, kept on the page after its toast has gone (a daily limit says when to retry). */
  const [failure, setFailure] = useState('');
  const [loading, setLoading] = useState(true);
  /** How far the server's validation job has come (null until it first answers). */
  const [progress, setProgress] = useState<JobProgress | null>(null);
  const [busy, setBusy] = useState(false);

  const run = useCallback(async () => {
    setLoading(true);
    setProgress(null);
    try {
      let file;
      try {
        file = await workflowApi.file(fileId);
      } catch {
        // Missing, deleted or another user's file (spec §8 file state).
        toast.error('Failed to fetch uploaded file.');
        return navigate('/dashboard', { replace: true });
      }
      if (file.status === 'submitted') {
        toast.error('This file is already submitted. Please upload a new file.');
        return navigate('/dashboard', { replace: true });
      }
      if (file.status === 'uploaded') {
        // Only auto-saved so far: nothing confirmed to validate against (the server refuses it too).
        toast.error('Please finish mapping this file before validating it.');
        return navigate(`/map-columns?fileId=${fileId}`, { replace: true });
      }
      setResult(await atLeast(3000, workflowApi.validate(fileId, setProgress)));
    } catch (err) {
      const message = errorMessage(err, 'Failed to validate uploaded data');
      toast.error(message);
      setFailure(message);
      setResult(null);
    } finally {
      setLoading(false);
    }
  }, [fileId, navigate]);

  useEffect(() => {
    if (!fileId) navigate('/dashboard', { replace: true });
    else void run();
  }, [fileId, navigate, run]);

  const [uploading, setUploading] = useState(false);
  const [sent, setSent] = useState<UploadProgress | null>(null);
  // The drop zone that had focus is gone while the new file is checked: focus goes to the page heading, so a
  // keyboard user keeps their place and a screen reader reads on from the top of the new result.
  const heading = useRef<HTMLHeadingElement>(null);
  const uploadFixed = async (files: readonly File[]) => {
    if (uploading) return;
    if (files.length > 1) return toast.error(ONE_FILE_ONLY);
    const file = files[0];
    if (!file || !file.name.toLowerCase().endsWith('.csv'))
      return toast.error('Please upload a valid .csv file.');
    setUploading(true);
    setSent(null);
    try {
      const res = await workflowApi.uploadFixed(fileId, file, setSent);
      if (!res.headers?.length) return toast.error('Uploaded file did not contain valid headers.');
      toast.success('File uploaded. Revalidating...');
      await run();
      heading.current?.focus();
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to upload file.'));
    } finally {
      setUploading(false);
    }
  };

  const chooseRefunds = async (choice: 'skip' | 'send') => {
    setBusy(true);
    try {
      await workflowApi.refundRows(fileId, choice);
      setResult((r) => (r ? { ...r, refundChoice: choice } : r));
    } catch (err) {
      toast.error(errorMessage(err, 'Could not save your choice for the refund rows.'));
    } finally {
      setBusy(false);
    }
  };

  /** Continue; `skipErrorRows` is the opt-in to leave the rows with errors out (docs/decisions/0055). */
  const proceed = async (skipErrorRows = false) => {
    if (!result || (result.rowsWithErrors > 0 && !skipErrorRows && !result.skipErrorRows))
      return toast.error('You must fix all errors before continuing.');
    if (refundsAsk) return toast.error(refundsMessage);
    setBusy(true);
    try {
      await workflowApi.setStatus(fileId, {
        status: 'validated',
        ...(skipErrorRows || result.skipErrorRows ? { skipErrorRows: true } : {}),
      });
      toast.success('File marked as validated');
      track('validation_completed', { rows: result.rowsChecked, corrected: result.rowsCorrected });
      navigate(`/submit?fileId=${fileId}`);
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to update file status'));
    } finally {
      setBusy(false);
    }
  };

  const wholeFileError = result?.error;
  /** Refund rows waiting for the user's skip-or-send (docs/decisions/0098). */
  const refundsAsk = !!result && !wholeFileError && result.refundRows > 0 && result.refundChoice === 'ask';
  const refundsMessage = `Choose whether to skip or send the ${result?.refundRows.toLocaleString()} refund ${result?.refundRows === 1 ? 'row' : 'rows'} above before continuing.`;
  const noErrors = !!result && !wholeFileError && result.rowsWithErrors === 0;
  /** Clean means nothing lost: no error and no value that cannot be used. */
  const clean = noErrors && result.droppedValues.length === 0 && !refundsAsk;
  const skipping = !!result && !wholeFileError && result.rowsWithErrors > 0 && result.skipErrorRows;
  const canContinue = (noErrors || skipping) && !refundsAsk;
  /** Rows with errors keeping Continue disabled (0 while loading, on a whole-file error or once skipped). */
  const blocked = !loading && result && !wholeFileError && !skipping ? result.rowsWithErrors : 0;
  /**
   * The skip offer is a way on: beside it, the spec's "You must fix all errors" would contradict it (issue 29).
   * That sentence stays for a file where continuing is refused, every row having an error.
   */
  const canSkip = blocked > 0 && blocked < (result?.rowsChecked ?? 0);
  const rowsWord = blocked === 1 ? 'row' : 'rows';
  const downloadSkipped = () =>
    download(`/api/uploads/${fileId}/skipped-rows.csv`, 'skipped-rows.csv').catch((err) =>
      toast.error(limitOr(err, 'Could not download the rows with errors.')),
    );

  return (
    <>
      <StepIndicator step={3} />
      <section className="mt-6 space-y-6">
        <div>
          <h1
            ref={heading}
            tabIndex={-1}
            className="text-2xl font-semibold tracking-tight text-slate-900 outline-none"
          >
            Validate your data
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            We check every row against Meta's rules and fix what can be fixed safely.
          </p>
        </div>

        {loading ? (
          <Card>
            <JobProgressBar kind="validate" progress={progress} />
          </Card>
        ) : wholeFileError ? (
          <Card className="border-red-200">
            <h2 className="text-lg font-semibold text-red-800">Validation Error</h2>
            <p className="mt-2 text-sm text-slate-700">
              {wholeFileError.startsWith("Your file headers don't match") ? HEADER_MISMATCH : wholeFileError}
            </p>
            <div className="mt-4 flex flex-wrap gap-3">
              <Link to={`/map-columns?fileId=${fileId}`} className={buttonClass('secondary')}>
                Return to Mapping
              </Link>
            </div>
            {result?.fileIssues.length ? (
              <div className="mt-4">
                <FileIssues issues={result.fileIssues} />
              </div>
            ) : null}
            <div className="mt-4">
              <CorrectedUpload onFile={uploadFixed} busy={uploading} sent={sent} />
            </div>
          </Card>
        ) : result ? (
          <>
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
              <Stat label="Rows checked" value={result.rowsChecked} />
              <Stat
                label="Rows with errors"
                value={result.rowsWithErrors}
                tone={result.rowsWithErrors ? 'bad' : 'good'}
              />
              <Stat label="Rows auto-corrected" value={result.rowsCorrected} tone="info" />
            </div>
            <FileIssues issues={result.fileIssues} />
            <FileNotices notices={result.fileNotices} />
            <DroppedValuesNotice drops={result.droppedValues} rows={result.rowsWithDrops} />
            {result.refundRows > 0 && (
              <RefundRowsChoice
                count={result.refundRows}
                choice={result.refundChoice}
                busy={busy}
                onChoose={(c) => void chooseRefunds(c)}
              />
            )}
            {result.rowsWithErrors > 0 && result.rowsWithErrors < result.rowsChecked && (
              <SkipErrorsOffer
                errorRows={result.rowsWithErrors}
                chosen={result.skipErrorRows}
                busy={busy}
                onSkip={() => void proceed(true)}
                onDownload={() => void downloadSkipped()}
              />
            )}
            {clean && (
              <p
                role="status"
                className="rounded-xl bg-emerald-50 px-4 py-3 font-medium text-emerald-800 ring-1 ring-inset ring-emerald-200"
              >
                Looks great! Your data is clean and ready to submit
              </p>
            )}
            {result.quality && <QualityCard quality={result.quality} />}
            <div className="flex flex-wrap gap-3">
              <Button
                variant="secondary"
                onClick={() =>
                  download(`/api/uploads/${fileId}/validate/report.csv`, 'report.csv').catch((err) =>
                    toast.error(limitOr(err, 'Could not generate report.')),
                  )
                }
              >
                Download Report
              </Button>
            </div>
            {result.rows.length > 0 && (
              <ReviewTable
                rows={result.rows}
                timeZone={result.timeZone}
                totals={{
                  error: result.rowsWithErrors,
                  dropped: result.rowsWithDrops,
                  corrected: result.rowsCorrected,
                  warning: result.rowsWithWarnings,
                }}
              />
            )}
            <CorrectedUpload onFile={uploadFixed} busy={uploading} sent={sent} />
          </>
        ) : (
          <Card>
            <p className="text-sm text-slate-700">Validation could not run.</p>
            {failure && <p className="mt-1 text-sm text-slate-600">{failure}</p>}
            <Button className="mt-3" onClick={() => void run()}>
              Try again
            </Button>
          </Card>
        )}

        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4">
          <Link to={`/map-columns?fileId=${fileId}`} className={buttonClass('secondary')}>
            Back to Mapping
          </Link>
          <div className="flex flex-wrap items-center justify-end gap-3">
            {blocked > 0 ? (
              <p id="continue-blocked" className="max-w-md text-sm text-red-700 sm:text-right">
                {canSkip
                  ? `To continue, skip the ${blocked.toLocaleString()} ${rowsWord} with errors above, or correct them in your file (Download Report lists them) and upload the corrected CSV.`
                  : `You must fix all errors before continuing. Correct the ${blocked.toLocaleString()} ${rowsWord} with errors in your file (Download Report lists them) and upload the corrected CSV.`}
              </p>
            ) : (
              !loading &&
              refundsAsk && (
                <p id="continue-blocked" className="max-w-md text-sm text-amber-800 sm:text-right">
                  {refundsMessage}
                </p>
              )
            )}
            <Button
              onClick={() => void proceed()}
              disabled={loading || busy || !canContinue}
              aria-describedby={blocked > 0 || (!loading && refundsAsk) ? 'continue-blocked' : undefined}
            >
              Continue to Submission
            </Button>
          </div>
        </div>
      </section>
    </>
  );
}

function Stat({
  label,
  value,
  tone = 'neutral',
}: {
  label: string;
  value: number;
  tone?: 'good' | 'bad' | 'info' | 'neutral';
}) {
  const color = {
    good: 'text-emerald-700',
    bad: 'text-red-700',
    info: 'text-brand-700',
    neutral: 'text-slate-900',
  }[tone];
  return (
    <Card className="p-4">
      <p className="text-sm text-slate-600">{label}</p>
      <p className={`mt-1 text-3xl font-semibold ${color}`}>{value.toLocaleString()}</p>
    </Card>
  );
}

// Always shown, at 0% too: what most files should have. Any other identifier the file has follows them (an app
// file's madid, a messaging file's ctwa_clid), so a score never stands on identifiers the card does not show.
const USUAL_IDENTIFIERS = ['email', 'phone', 'first_name', 'last_name', 'zip', 'city', 'external_id', 'db'];

function QualityCard({ quality }: { quality: NonNullable<ValidationResponse['quality']> }) {
  const pct = (k: string) =>
    quality.rows ? Math.round(((quality.identifiers[k] ?? 0) / quality.rows) * 100) : 0;
  const shown = [
    ...USUAL_IDENTIFIERS,
    ...Object.keys(quality.identifiers).filter(
      (k) => !USUAL_IDENTIFIERS.includes(k) && quality.identifiers[k],
    ),
  ];
  return (
    <Card>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="text-base font-semibold text-slate-900">Match quality estimate</h2>
        <p className="text-sm">
          <span className="text-2xl font-semibold text-slate-900">{quality.score}</span>
          <span className="text-slate-500"> / 10 · {quality.label}</span>
        </p>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-2 text-sm sm:grid-cols-4">
        {shown.map((k) => (
          <div key={k} className="rounded-lg bg-slate-50 px-3 py-2">
            <dt className="text-xs text-slate-500">{k}</dt>
            <dd className="font-semibold text-slate-900">{pct(k)}%</dd>
          </div>
        ))}
      </dl>
      {quality.advice.length > 0 && (
        <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-600">
          {quality.advice.map((a) => (
            <li key={a}>{a}</li>
          ))}
        </ul>
      )}
    </Card>
  );
}

function CorrectedUpload({
  onFile,
  busy,
  sent,
}: {
  onFile: (files: readonly File[]) => void;
  busy: boolean;
  sent: UploadProgress | null;
}) {
  return (
    <FileDrop onFile={onFile} disabled={busy}>
      {busy ? (
        <UploadProgressBar progress={sent} />
      ) : (
        <p className="font-semibold text-slate-900">Upload a corrected CSV</p>
      )}
      <p className="mt-1 text-sm text-slate-500">
        Click or drag and drop. Your mapping is kept and the file is checked again.
      </p>
    </FileDrop>
  );
}
