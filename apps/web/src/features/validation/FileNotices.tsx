import type { ValidationResponse } from '@backsignal/contracts';

type FileNotice = ValidationResponse['fileNotices'][number];

/** "Encoding: the file is …" → its label and the rest, so the list reads at a glance. */
function split(message: string): [string, string] {
  const at = message.indexOf(': ');
  // 'Amounts use "." between thousands' is the longest label.
  return at > 0 && at < 40 ? [message.slice(0, at), message.slice(at + 2)] : ['', message];
}

/**
 * Repairs of the file itself (encoding, line endings, blank lines, whitespace, title lines, long cells) and how
 * it was read (Excel's separator line, amounts with a decimal comma: decision 0097), each named once with its
 * count: a short list, apart from the problems and the row corrections.
 */
export function FileNotices({ notices }: { notices: readonly FileNotice[] }) {
  if (!notices.length) return null;
  return (
    <section
      aria-labelledby="file-notices-title"
      className="rounded-2xl bg-sky-50 px-5 py-4 ring-1 ring-inset ring-sky-200"
    >
      <h2 id="file-notices-title" className="text-base font-semibold text-sky-900">
        How the file was read ({notices.length})
      </h2>
      <p className="mt-1 text-sm text-sky-900">
        What was tidied or read a particular way before the rows were checked. The report lists these too.
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
