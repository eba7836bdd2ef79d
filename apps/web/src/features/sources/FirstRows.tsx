import type { TestFetchResponse } from '@backsignal/contracts';
import { Button } from '../../components/ui/Button.tsx';
import { formatWhen } from './sources-api.ts';

type Fetched = Extract<TestFetchResponse, { ok: true }>;

/** "Test fetch" went through: which file or object was read, its first rows, and the SFTP host key. */
export function FirstRows({ fetched }: { fetched: Fetched }) {
  const { item } = fetched;
  return (
    <div className="space-y-2">
      {item && (
        <p className="text-sm text-slate-700">
          Read <span className="break-all font-mono">{item.name}</span>
          {item.modifiedAt && <> (changed {formatWhen(item.modifiedAt)})</>}.{' '}
          {item.waiting === 0
            ? 'Every file here was already sent; this is the newest, shown so you can check the columns.'
            : item.waiting === 1
              ? 'It is the one file waiting to be sent.'
              : `${item.waiting} files wait to be sent, oldest first, one per run.`}
        </p>
      )}
      <p className="text-sm text-green-700">
        Fetched {fetched.rowCount} rows ({Math.max(1, Math.round(fetched.sizeBytes / 1024))} KB). The first
        rows:
      </p>
      <div className="overflow-x-auto rounded-lg border border-slate-200">
        <table className="min-w-full text-left text-xs">
          <thead className="bg-slate-50">
            <tr>
              {fetched.headers.map((h) => (
                <th key={h} className="whitespace-nowrap px-3 py-2 font-semibold text-slate-700">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {fetched.rows.map((r, i) => (
              <tr key={i} className="border-t border-slate-100">
                {r.map((v, j) => (
                  <td key={j} className="whitespace-nowrap px-3 py-1.5 text-slate-800">
                    {v}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {fetched.hostKey && (
        <p className="text-xs text-slate-600">
          Server host key: <span className="break-all font-mono">{fetched.hostKey}</span>. Saved with the
          source: a run stops if the server ever shows another key.
        </p>
      )}
    </div>
  );
}

/** The SFTP server shows another host key than the saved one: trusting it is the owner's call. */
export function HostKeyChanged({ seen, onTrust }: { seen: string; onTrust: () => void }) {
  return (
    <div className="space-y-2 text-slate-700">
      <p>
        Trust the key <span className="break-all font-mono">{seen}</span> only if you know the server was
        reinstalled or its key was changed.
      </p>
      <Button variant="secondary" onClick={onTrust}>
        Trust the new key
      </Button>
    </div>
  );
}
