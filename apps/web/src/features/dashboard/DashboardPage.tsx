import { useEffect, useState } from 'react';
import { Link, useNavigate } from '../../lib/ws-router.tsx';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { TUS_CHUNK_BYTES, type UploadSummary } from '@backsignal/contracts';
import { Button, buttonClass } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { FileDrop, uploadProblem } from '../../components/ui/FileDrop.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { UploadProgressBar } from '../../components/ui/UploadProgressBar.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { usePublicConfig } from '../../lib/public-config.ts';
import { useSession } from '../../lib/session.tsx';
import { track } from '../../lib/track.ts';
import type { UploadProgress } from '../../lib/upload.ts';
import { issuesNotice } from '../workflow/FileIssues.tsx';
import { routeForStatus, workflowApi } from '../workflow/workflow-api.ts';
import { fileBadge, fileDetails } from './file-badge.ts';
import { SourcesOverview } from '../sources/SourcesOverview.tsx';
import { useCan } from '../../lib/workspace.tsx';

const BETA_FLAG = 'backsignal:beta-welcome-seen';

export function DashboardPage() {
  usePageMeta({ title: 'Dashboard | Backsignal' });
  const { user } = useSession();
  const navigate = useNavigate();
  const canWork = useCan('member');
  const queryClient = useQueryClient();
  const { maxUploadMb } = usePublicConfig();
  const [page, setPage] = useState(1);
  const [toDelete, setToDelete] = useState<UploadSummary | null>(null);
  const [betaOpen, setBetaOpen] = useState(() => !localStorage.getItem(BETA_FLAG));

  const list = useQuery({
    queryKey: ['uploads', page],
    queryFn: () => workflowApi.list(page),
    placeholderData: keepPreviousData,
  });
  useEffect(() => {
    if (list.isError) {
      console.error(list.error);
      toast.error('Failed to load uploaded files');
    }
  }, [list.isError, list.error]);

  /** Bytes of the file being uploaded sent so far (null before the first report). */
  const [sent, setSent] = useState<UploadProgress | null>(null);
  const upload = useMutation({
    mutationFn: (file: File) => {
      setSent(null);
      return workflowApi.upload(file, setSent, () =>
        toast.info(`Continuing the upload of ${file.name} where it stopped.`),
      );
    },
    onSuccess: (res) => {
      toast.success(`Uploaded: ${res.file.fileName}`);
      const notice = issuesNotice(res.issues);
      if (notice) toast.warn(notice);
      track('file_upload', { rows: res.file.rowCount });
      void queryClient.invalidateQueries({ queryKey: ['uploads'] });
      navigate(`/map-columns?fileId=${res.file.id}`);
    },
    onError: (err) => {
      const msg = errorMessage(err, 'Upload failed');
      track('file_upload_failed', { reason: msg });
      toast.error(msg);
    },
  });

  const remove = useMutation({
    mutationFn: (id: string) => workflowApi.remove(id),
    onSuccess: () => {
      toast.success('File deleted!');
      setToDelete(null);
      void queryClient.invalidateQueries({ queryKey: ['uploads'] });
    },
    onError: () => toast.error('Failed to delete file.'),
  });

  const onFile = (files: readonly File[]) => {
    const problem = uploadProblem(files, maxUploadMb);
    if (problem) {
      track('file_upload_validation_failed', { reason: problem, size: files[0]?.size });
      return toast.error(problem);
    }
    upload.mutate(files[0]!);
  };

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / 10));
  // Deleting the last file of the last page (or files removed in another tab) leaves us past the end.
  const loadedTotal = list.isPlaceholderData ? undefined : list.data?.total;
  useEffect(() => {
    if (loadedTotal === undefined) return;
    const last = Math.max(1, Math.ceil(loadedTotal / 10));
    if (page > last) setPage(last);
  }, [loadedTotal, page]);

  return (
    <section className="space-y-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
            Welcome, {user?.firstName}!
          </h1>
          <p className="mt-1 text-sm text-slate-600">
            Upload a CSV of offline conversions to send them to Meta.
          </p>
        </div>
        <Link to="/pixel-accounts" className={buttonClass('secondary')}>
          Manage Pixel Accounts
        </Link>
      </div>

      {/* A viewer sees the workspace's files; uploading and deleting need a member (decision 0103). */}
      {canWork && (
        <FileDrop onFile={onFile} disabled={upload.isPending}>
          <svg
            aria-hidden
            viewBox="0 0 24 24"
            className="h-10 w-10 text-brand-600"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
          >
            <path
              strokeLinecap="round"
              strokeLinejoin="round"
              d="M12 16V4m0 0-4 4m4-4 4 4M4 16v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2"
            />
          </svg>
          {upload.isPending ? (
            <div className="mt-3 flex w-full justify-center">
              <UploadProgressBar progress={sent} />
            </div>
          ) : (
            <p className="mt-3 text-base font-semibold text-slate-900">
              Drop your CSV here, or click to choose a file
            </p>
          )}
          <p className="mt-1 text-sm text-slate-500">
            One .csv file up to {maxUploadMb} MB: leads, sales or CRM exports.
          </p>
          {maxUploadMb * 1024 * 1024 > TUS_CHUNK_BYTES && (
            <p className="mt-1 text-sm text-slate-500">
              Large files upload in parts: if the connection drops or the page reloads, choose the same file
              again and it continues where it stopped.
            </p>
          )}
        </FileDrop>
      )}

      <SourcesOverview />

      <Card className="p-0!">
        <div className="flex items-center justify-between border-b border-slate-200 px-6 py-4">
          <h2 className="text-base font-semibold text-slate-900">Uploaded files</h2>
          {/* Only a count the server gave: not "0 total" while loading or beside a load error. */}
          {list.data && <span className="text-sm text-slate-500">{total} total</span>}
        </div>
        {list.isPending ? (
          <Spinner />
        ) : list.isError ? (
          <p role="alert" className="px-6 py-10 text-center text-sm text-red-700">
            Failed to load uploaded files
          </p>
        ) : total === 0 ? (
          <p className="px-6 py-10 text-center text-sm text-slate-500">
            No files yet. Upload your first CSV above.
          </p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {list.data.uploads.map((f) => {
              const badge = fileBadge(f);
              return (
                <li key={f.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-6 py-3">
                  {/* Phone: name and Delete on the first line, details below; wider screens: one line. */}
                  {/* A viewer reads summaries; the workflow's screens before them are a member's. */}
                  {canWork || f.status === 'submitted' ? (
                    <Link
                      to={routeForStatus(f.status, f.id)}
                      className="order-1 min-w-0 flex-1 truncate font-medium text-brand-700 hover:underline"
                    >
                      {f.fileName}
                      {f.corrected && <span className="font-normal text-slate-500">, corrected</span>}
                    </Link>
                  ) : (
                    <span className="order-1 min-w-0 flex-1 truncate font-medium text-slate-900">
                      {f.fileName}
                      {f.corrected && <span className="font-normal text-slate-500">, corrected</span>}
                    </span>
                  )}
                  <span className="order-3 flex basis-full flex-wrap items-center gap-x-2 gap-y-1 sm:order-2 sm:basis-auto">
                    <span id={`details-${f.id}`} className="text-xs text-slate-500">
                      {fileDetails(f)}
                    </span>
                    {badge.detail && <span className="text-xs text-slate-600">{badge.detail}</span>}
                    <span
                      className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${badge.tone}`}
                    >
                      {badge.label}
                    </span>
                  </span>
                  {canWork && (
                    <Button
                      variant="danger-outline"
                      className="order-2 px-2.5 py-1 sm:order-3"
                      onClick={() => setToDelete(f)}
                      aria-label={`Delete ${f.fileName}`}
                      // Two files may share a name: their details tell a screen reader which one this deletes.
                      aria-describedby={`details-${f.id}`}
                    >
                      Delete
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {pages > 1 && (
          <nav
            aria-label="Pagination"
            className="flex items-center justify-between border-t border-slate-200 px-6 py-3 text-sm"
          >
            <Button variant="secondary" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              Previous
            </Button>
            <span>
              Page {page} of {pages}
            </span>
            <Button variant="secondary" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
              Next
            </Button>
          </nav>
        )}
      </Card>

      <Dialog open={!!toDelete} onClose={() => setToDelete(null)} title="Delete this file?">
        <p>
          <strong>{toDelete?.fileName}</strong> and everything prepared from it will be deleted.
        </p>
        {/* Another file may have the same name: these say which one. */}
        {toDelete && <p className="mt-2 text-sm text-slate-600">{fileDetails(toDelete)}</p>}
        <div className="mt-6 flex justify-end gap-3">
          <Button variant="secondary" onClick={() => setToDelete(null)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={remove.isPending}
            onClick={() => toDelete && remove.mutate(toDelete.id)}
          >
            Delete file
          </Button>
        </div>
      </Dialog>

      <Dialog
        open={betaOpen}
        onClose={() => {
          localStorage.setItem(BETA_FLAG, '1');
          setBetaOpen(false);
        }}
        title="Welcome to the Backsignal beta"
      >
        <p>
          Backsignal is free during the open beta. Upload a CSV, map its columns, and we check, fix and hash
          every row before it goes to Meta.
        </p>
        <p className="mt-2">Tell us what works and what doesn't: the Contact Us link is always at the top.</p>
        <div className="mt-6 flex justify-end">
          <Button
            onClick={() => {
              localStorage.setItem(BETA_FLAG, '1');
              setBetaOpen(false);
            }}
          >
            Let's go
          </Button>
        </div>
      </Dialog>
    </section>
  );
}
