import type { ValidationResponse } from '@backsignal/contracts';

type FileNotice = ValidationResponse['fileNotices'][number];

/** "Encoding: the file is …" → its label and the rest, so the list reads at a glance. */
function split(message: string): [string, string] {
  const at = message.indexOf(': ');
  return at > 0 && at < 24 ? [message.slice(0, at), message.slice(at + 2)] : ['', message];
}

/**
 * Repairs of the file itself (encoding, line endings, blank lines, whitespace, title lines, long cells), each
 * named once with its count: a short list, apart from the problems and the row corrections.
 */
export function FileNotices({ notices }: { notices: readonly FileNotice[] }) {
  if (!notices.length) return null;
  return (
    <section
      aria-labelledby="file-notices-title"
      className="rounded-2xl bg-sky-50 px-5 py-4 ring-1 ring-inset ring-sky-200"
    >
      <h2 id="file-notices-title" className="text-base font-semibold text-sky-900">
        Repairs made to the file ({notices.length})
      </h2>
      <p className="mt-1 text-sm text-sky-900">
        The file itself was tidied before its rows were read. The report lists these too.
      </p>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm break-words text-sky-900">
        {notices.map((n) => {
          const [label, rest] = split(n.message);
          return (
            <li key={n.code + n.message}>
              {label && <span className="font-semibold">{label}: </span>}
              {rest}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
