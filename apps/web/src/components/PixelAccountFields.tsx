import type { Dispatch, SetStateAction } from 'react';
import { TextField } from './ui/Field.tsx';
import { SecretField } from './ui/SecretField.tsx';

/** A pixel account being added, on /pixel-accounts or inline on /submit. */
export interface AccountDraft {
  name: string;
  pixelId: string;
  accessToken: string;
}

export const EMPTY_ACCOUNT_DRAFT: AccountDraft = { name: '', pixelId: '', accessToken: '' };

/** The three fields of a new pixel account: label (optional), pixel id and access token. */
export function PixelAccountFields({
  draft,
  setDraft,
  labelPlaceholder,
}: {
  draft: AccountDraft;
  setDraft: Dispatch<SetStateAction<AccountDraft>>;
  labelPlaceholder?: string;
}) {
  return (
    <>
      <TextField
        label="Label (optional)"
        value={draft.name}
        onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))}
        placeholder={labelPlaceholder}
      />
      <TextField
        label="Pixel ID"
        inputMode="numeric"
        value={draft.pixelId}
        onChange={(e) => setDraft((d) => ({ ...d, pixelId: e.target.value }))}
      />
      <SecretField
        label="API access token"
        value={draft.accessToken}
        onChange={(e) => setDraft((d) => ({ ...d, accessToken: e.target.value }))}
      />
    </>
  );
}
