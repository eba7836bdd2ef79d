import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { toast } from 'react-toastify';
import { ROLE_LABELS, type InvitationPreview } from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useWorkspaceOptional } from '../../lib/workspace.tsx';
import { AuthCard, FormError } from './AuthCard.tsx';
import { membersApi } from './members-api.ts';

const ENDED: Record<Exclude<InvitationPreview['state'], 'pending'>, string> = {
  accepted: 'This invitation was already used.',
  revoked: 'This invitation was revoked. Ask for a new one.',
  expired: 'This invitation has expired. Ask for a new one.',
};

/**
 * /invite?token=…, the link of an invitation mail (decision 0105). Behind the verified-account guard: a
 * newcomer signs up with the invited address, verifies it, and opens the link again.
 */
export function InvitePage() {
  usePageMeta({ title: 'Invitation | Backsignal' });
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const workspaces = useWorkspaceOptional();
  const [invitation, setInvitation] = useState<InvitationPreview | null>(null);
  const [problem, setProblem] = useState<string | null>(token ? null : 'The invitation link is incomplete.');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!token) return;
    membersApi
      .preview(token)
      .then(setInvitation)
      .catch((err: unknown) => setProblem(errorMessage(err, 'This invitation link is not valid.')));
  }, [token]);

  const accept = async () => {
    setBusy(true);
    try {
      const { message, workspace } = await membersApi.accept(token);
      toast.success(message);
      // The joined workspace's own address: the tab's workspace until now was another one (decision 0104).
      await workspaces?.reload();
      navigate(`/w/${workspace.slug}/dashboard`, { replace: true });
    } catch (err) {
      setProblem(errorMessage(err, 'The invitation could not be accepted.'));
    } finally {
      setBusy(false);
    }
  };

  if (problem)
    return (
      <AuthCard title="Invitation">
        <FormError message={problem} />
      </AuthCard>
    );
  if (!invitation)
    return (
      <AuthCard title="Invitation">
        <Spinner label="Opening your invitation..." />
      </AuthCard>
    );
  const ended = invitation.state === 'pending' ? null : ENDED[invitation.state];
  return (
    <AuthCard title={`Join ${invitation.workspaceName}`}>
      <p className="text-sm text-slate-700">
        {invitation.invitedBy ?? 'Someone'} invited {invitation.email} to {invitation.workspaceName} as{' '}
        {ROLE_LABELS[invitation.role].toLowerCase()}.
      </p>
      {invitation.alreadyMember ? (
        <p className="mt-4 text-sm text-slate-700">You are already a member of this workspace.</p>
      ) : ended ? (
        <div className="mt-4">
          <FormError message={ended} />
        </div>
      ) : (
        <Button className="mt-6 w-full" onClick={accept} disabled={busy}>
          {busy ? 'Joining...' : `Join ${invitation.workspaceName}`}
        </Button>
      )}
    </AuthCard>
  );
}
