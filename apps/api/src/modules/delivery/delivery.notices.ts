import type { ResolvedDeps } from '../../deps.ts';
import { workspacesRepo } from '../workspaces/workspaces.repo.ts';
import { deliveryRepo, type NoticeRow } from './delivery.repo.ts';
import { sendNoticeMail } from './delivery.mails.ts';

type NoticeDeps = Pick<ResolvedDeps, 'db' | 'mailer' | 'config'>;

/** A source's send Meta stopped on its token pauses the source, and that mail (tokenExpiredMail) says it all. */
const saidElsewhere = (n: NoticeRow) => n.source_id !== null && n.stop_reason === 'token';

const linkOf = (appUrl: string, n: NoticeRow) =>
  n.source_id
    ? `${appUrl}/w/${n.slug}/sources/${n.source_id}`
    : `${appUrl}/w/${n.slug}/summary?fileId=${n.upload_id}`;

/**
 * Mails every send that ended with failed events or stopped (issue 31): to the workspace's owners and admins and
 * to the member who started it, one mail per address. Any worker may call it after a run and on its sweep; each
 * run is claimed once, so it is mailed at most once. A mail that fails is logged, not retried: a retry could
 * mail the addresses that did get it a second time.
 */
export async function mailSendNotices(
  deps: NoticeDeps,
  log: { error: (obj: unknown, msg: string) => void } = console,
): Promise<number> {
  let mailed = 0;
  for (;;) {
    const due = await deliveryRepo.claimNotices(deps.db, 20);
    for (const n of due) {
      if (saidElsewhere(n)) continue;
      const to = new Set(await workspacesRepo.managerEmails(deps.db, n.workspace_id));
      if (n.starter_email) to.add(n.starter_email);
      for (const address of to) {
        try {
          await deps.mailer.send(sendNoticeMail(address, n, linkOf(deps.config.appUrl, n)));
          mailed++;
        } catch (err) {
          log.error({ err, runId: n.id }, 'send notice mail failed');
        }
      }
    }
    if (due.length < 20) return mailed;
  }
}
