import { useId } from 'react';
import {
  maskedParams,
  SECRET_MASK,
  type CsvUrlConnection,
  type S3Connection,
  type SftpConnection,
  type SourceConnection,
} from '@backsignal/contracts';
import { SelectField, TextAreaField, TextField } from '../../components/ui/Field.tsx';
import { SecretField } from '../../components/ui/SecretField.tsx';

interface Props<C> {
  conn: C;
  onChange: (c: C) => void;
  /** A secret is stored for this source: leaving the field empty keeps it. */
  secretStored: boolean;
  errors: Record<string, string>;
}

const secretHint = (stored: boolean) =>
  stored ? 'Saved. Leave empty to keep it.' : 'Encrypted at rest, never shown again.';

/** Secret values in a link are sealed like a token; the owner learns what the mask in a saved link means. */
const urlHint = (url: string) =>
  maskedParams(url).length
    ? `${SECRET_MASK} stands for a stored value: leave it to keep it, or paste the new link.`
    : `Signatures, tokens and keys in the link (X-Amz-Signature, token=, key=…) are encrypted at rest and shown as ${SECRET_MASK}.`;

/** The Connect step's fields for the source's kind. */
export function ConnectionFields(props: Props<SourceConnection>) {
  const { conn } = props;
  if (conn.kind === 'csv_url') return <CsvUrlFields {...(props as Props<CsvUrlConnection>)} />;
  if (conn.kind === 's3') return <S3Fields {...(props as Props<S3Connection>)} />;
  return <SftpFields {...(props as Props<SftpConnection>)} />;
}

function CsvUrlFields({ conn, onChange, secretStored, errors }: Props<CsvUrlConnection>) {
  return (
    <>
      <TextField
        label="CSV URL"
        value={conn.url}
        placeholder="https://docs.google.com/spreadsheets/d/…/pub?output=csv"
        hint={urlHint(conn.url)}
        error={errors.url}
        onChange={(e) => onChange({ ...conn, url: e.target.value })}
      />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <SelectField
          label="Authentication"
          value={conn.auth}
          onChange={(e) =>
            onChange({ ...conn, auth: e.target.value as CsvUrlConnection['auth'], secret: undefined })
          }
        >
          <option value="none">None</option>
          <option value="header">Header token</option>
          <option value="basic">User name and password</option>
        </SelectField>
        {conn.auth === 'header' && (
          <TextField
            label="Header name"
            value={conn.headerName ?? ''}
            placeholder="Authorization"
            onChange={(e) => onChange({ ...conn, headerName: e.target.value })}
          />
        )}
        {conn.auth === 'basic' && (
          <TextField
            label="User name"
            value={conn.username ?? ''}
            onChange={(e) => onChange({ ...conn, username: e.target.value })}
          />
        )}
        {conn.auth !== 'none' && (
          <SecretField
            label={conn.auth === 'header' ? 'Token' : 'Password'}
            value={conn.secret ?? ''}
            hint={secretHint(secretStored)}
            error={errors.secret}
            onChange={(e) => onChange({ ...conn, secret: e.target.value })}
          />
        )}
      </div>
    </>
  );
}

function S3Fields({ conn, onChange, secretStored, errors }: Props<S3Connection>) {
  const ids = useId();
  return (
    <>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
        <div className="sm:col-span-2">
          <TextField
            label="Endpoint"
            value={conn.endpoint}
            placeholder="https://<account>.r2.cloudflarestorage.com"
            hint="Leave empty for AWS S3. For Cloudflare R2, MinIO and other S3-compatible stores, their endpoint URL."
            error={errors.endpoint}
            onChange={(e) => onChange({ ...conn, endpoint: e.target.value })}
          />
        </div>
        <TextField
          label="Region"
          value={conn.region}
          placeholder="us-east-1"
          hint="AWS: the bucket's region. R2: auto."
          onChange={(e) => onChange({ ...conn, region: e.target.value })}
        />
      </div>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Bucket"
          value={conn.bucket}
          placeholder="crm-exports"
          error={errors.bucket}
          onChange={(e) => onChange({ ...conn, bucket: e.target.value })}
        />
        <TextField
          label="Prefix (optional)"
          value={conn.prefix}
          placeholder="leads/"
          hint="Only objects whose key starts with this are read."
          onChange={(e) => onChange({ ...conn, prefix: e.target.value })}
        />
        <TextField
          label="Access key ID"
          value={conn.accessKeyId}
          autoComplete="off"
          spellCheck={false}
          error={errors.accessKeyId}
          onChange={(e) => onChange({ ...conn, accessKeyId: e.target.value })}
        />
        <SecretField
          label="Secret access key"
          value={conn.secret ?? ''}
          hint={secretHint(secretStored)}
          error={errors.secret}
          onChange={(e) => onChange({ ...conn, secret: e.target.value })}
        />
      </div>
      <div className="flex items-start gap-2 text-sm text-slate-700">
        <input
          id={`${ids}-path-style`}
          type="checkbox"
          aria-describedby={`${ids}-path-style-hint`}
          className="mt-0.5 h-4 w-4 rounded border-slate-300 text-brand-600"
          checked={conn.pathStyle}
          onChange={(e) => onChange({ ...conn, pathStyle: e.target.checked })}
        />
        <div>
          <label htmlFor={`${ids}-path-style`}>Path-style addresses</label>
          <p id={`${ids}-path-style-hint`} className="text-xs text-slate-500">
            Needed by MinIO and some other stores: the bucket goes in the path, not in the host name.
          </p>
        </div>
      </div>
      <p className="text-xs text-slate-500">
        The key needs permission to list the bucket and read its objects. Each object is sent once; a new one
        is picked up by the next run.
      </p>
    </>
  );
}

function SftpFields({ conn, onChange, secretStored, errors }: Props<SftpConnection>) {
  return (
    <>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-4">
        <div className="sm:col-span-3">
          <TextField
            label="Server"
            value={conn.host}
            placeholder="sftp.example.com"
            error={errors.host}
            onChange={(e) => onChange({ ...conn, host: e.target.value, hostKey: null })}
          />
        </div>
        <TextField
          label="Port"
          type="number"
          inputMode="numeric"
          min={1}
          max={65535}
          value={conn.port ? String(conn.port) : ''}
          error={errors.port}
          // Cleared, the field stays empty (port 0, which missingFields names) instead of snapping back to 22.
          onChange={(e) => onChange({ ...conn, port: Number(e.target.value) || 0, hostKey: null })}
        />
      </div>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="User name"
          value={conn.username}
          autoComplete="off"
          error={errors.username}
          onChange={(e) => onChange({ ...conn, username: e.target.value })}
        />
        <SelectField
          label="Sign in with"
          value={conn.auth}
          onChange={(e) =>
            onChange({
              ...conn,
              auth: e.target.value as SftpConnection['auth'],
              secret: undefined,
              passphrase: undefined,
            })
          }
        >
          <option value="password">Password</option>
          <option value="key">Private key</option>
        </SelectField>
      </div>
      {conn.auth === 'password' ? (
        <SecretField
          label="Password"
          value={conn.secret ?? ''}
          hint={secretHint(secretStored)}
          error={errors.secret}
          onChange={(e) => onChange({ ...conn, secret: e.target.value })}
        />
      ) : (
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <div className="sm:col-span-2">
            <TextAreaField
              label="Private key"
              rows={4}
              spellCheck={false}
              autoComplete="off"
              className="font-mono text-xs"
              placeholder="-----BEGIN OPENSSH PRIVATE KEY-----"
              value={conn.secret ?? ''}
              hint={secretHint(secretStored)}
              error={errors.secret}
              onChange={(e) => onChange({ ...conn, secret: e.target.value })}
            />
          </div>
          <SecretField
            label="Passphrase (optional)"
            value={conn.passphrase ?? ''}
            onChange={(e) => onChange({ ...conn, passphrase: e.target.value })}
          />
        </div>
      )}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Folder"
          value={conn.folder}
          placeholder="exports"
          hint="Empty for the user's home folder. exports is inside it; /data/exports starts at the root."
          onChange={(e) => onChange({ ...conn, folder: e.target.value })}
        />
        <TextField
          label="File name pattern"
          value={conn.pattern}
          placeholder="*.csv"
          hint="* stands for any text, ? for one character: leads-*.csv"
          error={errors.pattern}
          onChange={(e) => onChange({ ...conn, pattern: e.target.value })}
        />
      </div>
      <SelectField
        label="After a file is sent"
        value={conn.afterProcessing}
        hint="Either way, each file is sent once. A file left in place is remembered by its name, size and time."
        onChange={(e) =>
          onChange({ ...conn, afterProcessing: e.target.value as SftpConnection['afterProcessing'] })
        }
      >
        <option value="remember">Leave it in the folder</option>
        <option value="move">Move it into processed/</option>
      </SelectField>
      {conn.hostKey && (
        <p className="text-xs text-slate-600">
          Trusted host key: <span className="break-all font-mono">{conn.hostKey}</span>
        </p>
      )}
    </>
  );
}
