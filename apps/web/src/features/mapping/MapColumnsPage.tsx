import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useNavigate } from '../../lib/ws-router.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import type { FileSettings, HeadersResponse, StatusUpdate } from '@backsignal/contracts';
import {
  FIELD_BY_KEY,
  FIELD_GROUPS,
  FIELDS,
  FULL_NAME,
  FULL_NAME_FIELD,
  hardcodedChoices,
  mappingProblem,
  pruneMappings,
  REQUIRED_FIELDS,
  sourceRuleProblems,
} from '@backsignal/core/browser';
import { StepIndicator } from '../../components/StepIndicator.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { track } from '../../lib/track.ts';
import { workflowApi } from '../workflow/workflow-api.ts';
import { FullNameRow } from './FullNameRow.tsx';
import { MappingActions } from './MappingActions.tsx';
import { PhoneCountryPicker, TimeZonePicker } from './SettingsPickers.tsx';
import { SuggestionChoices } from './SuggestionChoices.tsx';
import { SourceRulesNotice } from './SourceRulesNotice.tsx';
import { TemplateAppliedNote } from './TemplateAppliedNote.tsx';
import { templateChanges, type TemplateChanges } from './template-changes.ts';
import {
  addField,
  applySuggestions,
  applyTemplate,
  autoMapped,
  clearAll,
  clearSuggestions,
  columnOptionLabel,
  fromSaved,
  markAuto,
  removeField,
  toggleMode,
  toPayload,
  updateRow,
  type MappedRow,
} from './mapping-state.ts';

/** Mappable groups shown unfolded until a search opens them all. */
const OPEN_GROUPS = new Set(['event', 'user']);

/** The field's key as Meta's docs and our messages name it; long keys wrap at their underscores, not mid-word. */
function FieldKey({ name }: { name: string }) {
  const parts = name.split('_');
  return (
    <code className="rounded bg-slate-100 px-1 py-0.5 font-mono text-xs font-normal text-slate-600">
      {parts.map((p, i) => (
        <span key={i}>
          {p}
          {i < parts.length - 1 && (
            <>
              _<wbr />
            </>
          )}
        </span>
      ))}
    </code>
  );
}

export function MapColumnsPage() {
  usePageMeta({ title: 'Map fields | Backsignal' });
  const [params] = useSearchParams();
  const fileId = params.get('fileId') ?? '';
  const navigate = useNavigate();
  const loaded = useQuery({
    queryKey: ['mapping', fileId],
    queryFn: async () => {
      const file = await workflowApi.file(fileId);
      if (file.status === 'submitted') throw Object.assign(new Error('submitted'), { submitted: true });
      return { file, headers: await workflowApi.headers(fileId) };
    },
    enabled: !!fileId,
    retry: false,
    gcTime: 0,
  });

  useEffect(() => {
    if (!fileId) navigate('/dashboard', { replace: true });
    if (loaded.isError) {
      toast.error(
        (loaded.error as { submitted?: boolean }).submitted
          ? 'This file is already submitted. Please upload a new file.'
          : 'Failed to fetch uploaded file.',
      );
      navigate('/dashboard', { replace: true });
    }
  }, [fileId, loaded.isError, loaded.error, navigate]);

  return (
    <>
      <StepIndicator step={2} />
      {loaded.data ? (
        <MappingEditor fileId={fileId} fileName={loaded.data.file.fileName} data={loaded.data.headers} />
      ) : (
        <Spinner />
      )}
    </>
  );
}

function initialRows(data: HeadersResponse): { rows: MappedRow[]; removed: string[] } {
  if (!data.saved) return { rows: applySuggestions(clearAll(), data.headers, data.samples), removed: [] };
  const { mappings, removed } = pruneMappings(data.headers, data.mappings);
  // The saved mapping says which fields are still as suggested; those keep their flag.
  return { rows: markAuto(fromSaved(mappings, data.hardcodedValues), data.autoMapped), removed };
}

function MappingEditor({
  fileId,
  fileName,
  data,
}: {
  fileId: string;
  fileName: string;
  data: HeadersResponse;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [start] = useState(() => initialRows(data));
  const [rows, setRows] = useState<MappedRow[]>(start.rows);
  const [settings, setSettings] = useState<FileSettings>(data.settings);
  const [search, setSearch] = useState('');
  const [busy, setBusy] = useState(false);
  /** The last template applied: what it changed, and the mapping before it for Undo. */
  const [applied, setApplied] = useState<{
    changes: TemplateChanges;
    before: MappedRow[];
    after: MappedRow[];
    undone: boolean;
  } | null>(null);
  const first = useRef(true);
  const continueButton = useRef<HTMLButtonElement>(null);
  // An added field lands at the end of the scrolled Mapped Fields list and its Add button disappears: move focus
  // (and the list's scroll) to the new row's control, so it is seen and keyboard focus is not lost to the page.
  const focusAfterAdd = useRef<string | null>(null);
  const addAndFocus = (field: string) => {
    focusAfterAdd.current = field;
    setRows((r) => addField(r, field));
  };
  useEffect(() => {
    if (!focusAfterAdd.current) return;
    document.getElementById(`map-${focusAfterAdd.current}`)?.focus();
    focusAfterAdd.current = null;
  }, [rows]);
  const footerStatus = useRef<HTMLParagraphElement>(null);

  useEffect(() => {
    if (start.removed.length)
      toast.warn(
        'Some mappings were removed because their corresponding headers are no longer in the uploaded file.',
      );
  }, [start.removed.length]);

  const payload = useMemo(() => toPayload(rows), [rows]);
  // Saved with the mapping, so the Auto-Mapped flags come back on a reload or on another device.
  const auto = useMemo(() => autoMapped(rows), [rows]);
  // Meta's per-source rules come after the spec's messages, in their order: a fixed website or app source
  // without its fields fails every row, so it blocks Continue; a column's samples only warn.
  const sourceProblems = sourceRuleProblems({
    mappings: payload.mappings,
    hardcoded: payload.hardcodedValues,
    samples: data.samples,
  });
  const problem =
    mappingProblem({
      mappings: payload.mappings,
      hardcoded: payload.hardcodedValues,
      mappedFields: rows.map((r) => r.field),
    }) ??
    sourceProblems.find((p) => p.scope === 'fixed')?.message ??
    null;
  // The spec's sentence does not say which field is empty; in a long list the user has to be told.
  const empty = rows.filter((r) => (r.mode === 'column' ? !r.column : !r.value.trim())).map((r) => r.field);
  const problemText =
    problem?.startsWith('All fields in the Mapped Fields') && empty.length
      ? `${problem} Still empty: ${empty.join(', ')}.`
      : problem;

  // A late auto-save ('uploaded') landing after Continue's 'mapped' would undo it and block validation's next step.
  const autosave = useRef<{
    timer?: ReturnType<typeof setTimeout>;
    /** The save waiting out the debounce; sent early if the page goes away first. */
    pending?: { fileId: string; body: StatusUpdate };
    inflight?: Promise<unknown>;
  }>({});
  const sendPending = useRef(() => {});
  sendPending.current = () => {
    const pending = autosave.current.pending;
    if (!pending) return;
    clearTimeout(autosave.current.timer);
    autosave.current.pending = undefined;
    autosave.current.inflight = workflowApi
      .setStatus(pending.fileId, pending.body)
      .catch((err) => console.error('Auto-save failed', err));
  };
  // Spec §4: auto-save 600 ms after any change, as status 'uploaded'; failures only reach the console.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      if (data.saved && !start.removed.length) return;
    }
    autosave.current.pending = {
      fileId,
      body: { status: 'uploaded', ...payload, autoMapped: auto, settings },
    };
    const t = setTimeout(() => sendPending.current(), 600);
    autosave.current.timer = t;
    // Only the timer is dropped here: the next change replaces `pending`, and leaving the page sends it.
    return () => clearTimeout(t);
  }, [payload, auto, settings, fileId, data.saved, start.removed.length]);
  // Leaving within the debounce window (Account, Back, closing the tab) must not lose the last change.
  useEffect(() => {
    const flush = () => sendPending.current();
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, []);

  const used = new Map(rows.filter((r) => r.mode === 'column' && r.column).map((r) => [r.column, r.field]));
  const mappedKeys = new Set(rows.map((r) => r.field));
  const term = search.trim().toLowerCase();
  const mappable = [...FIELDS, FULL_NAME_FIELD].filter(
    (f) =>
      !mappedKeys.has(f.key) &&
      (!term || `${f.key} ${f.label} ${f.description}`.toLowerCase().includes(term)),
  );

  const continueToValidation = async () => {
    if (problem) return toast.error(problem);
    setBusy(true);
    // Continue saves the same mapping as 'mapped'; the pending 'uploaded' save must not follow it on unmount.
    clearTimeout(autosave.current.timer);
    const unsent = autosave.current.pending;
    autosave.current.pending = undefined;
    try {
      await autosave.current.inflight;
      await workflowApi.setStatus(fileId, { status: 'mapped', ...payload, autoMapped: auto, settings });
      toast.success('File marked as mapped');
      void queryClient.invalidateQueries({ queryKey: ['uploads'] });
      track('mapping_continued', { fields: rows.length });
      navigate(`/verify-data?fileId=${fileId}`);
    } catch (err) {
      // Nothing was saved: leaving the page now still has to send the change the auto-save was holding.
      if (unsent && !autosave.current.pending) autosave.current.pending = unsent;
      toast.error(errorMessage(err, 'Failed to save mappings.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="mt-6 space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Map your columns</h1>
          <p className="mt-1 text-sm text-slate-600">
            Tell us which column of <strong>{fileName}</strong> holds each Meta parameter, or type a fixed
            value for every row.
          </p>
        </div>
        <MappingActions
          rows={rows}
          onApplySuggestions={() => setRows((r) => applySuggestions(r, data.headers, data.samples))}
          onClearSuggestions={() => setRows(clearSuggestions)}
          onClearAll={() => setRows(clearAll())}
          onApplyTemplate={(m, h, name) => {
            const next = applyTemplate(rows, data.headers, m, h);
            setApplied({
              changes: templateChanges(name, rows, next.rows, { mappings: m, hardcoded: h }, next.missing),
              before: rows,
              after: next.rows,
              undone: false,
            });
            setRows(next.rows);
          }}
        />
      </div>

      {applied && (
        <TemplateAppliedNote
          changes={applied.changes}
          undone={applied.undone}
          canUndo={rows === applied.after}
          onUndo={() => {
            setRows(applied.before);
            setApplied({ ...applied, undone: true });
          }}
          onDismiss={() => setApplied(null)}
        />
      )}
      <SourceRulesNotice problems={sourceProblems} />

      {/* grid-cols-1 is minmax(0,1fr): without it the selects' long option texts widen the track past a phone screen. */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-5">
        <Card className="self-start lg:col-span-3">
          <h2 className="text-base font-semibold text-slate-900">Mapped Fields</h2>
          <SuggestionChoices rows={rows} headers={data.headers} samples={data.samples} />
          <ul className="mt-4 space-y-3">
            {rows.map((row) => {
              const Row = row.field === FULL_NAME ? FullNameRow : MappedFieldRow;
              return (
                <Row
                  key={row.field}
                  row={row}
                  headers={data.headers}
                  samples={data.samples}
                  used={used}
                  onChange={setRows}
                />
              );
            })}
          </ul>
          {/* Keyboard: the ~90 mappable fields and the settings come before Continue; this jumps over them. */}
          <button
            type="button"
            onClick={() => (problem ? footerStatus.current?.focus() : continueButton.current?.focus())}
            className="sr-only rounded-lg px-3 py-2 text-sm font-semibold text-brand-700 focus:not-sr-only focus:mt-3 focus:inline-block"
          >
            Skip to the Continue button
          </button>
        </Card>

        <div className="space-y-6 lg:col-span-2">
          <Card>
            <h2 className="text-base font-semibold text-slate-900">File settings</h2>
            <p className="mt-1 text-xs text-slate-500">How to read values the file leaves ambiguous.</p>
            <div className="mt-3 space-y-3">
              <TimeZonePicker
                label="Time zone for dates without one"
                value={settings.timeZone}
                onChange={(timeZone) => setSettings((s) => ({ ...s, timeZone }))}
              />
              <SelectField
                label="Dates like 03/04/2026 mean"
                value={settings.dateOrder}
                onChange={(e) => setSettings((s) => ({ ...s, dateOrder: e.target.value as 'MDY' | 'DMY' }))}
              >
                <option value="MDY">March 4 (month first)</option>
                <option value="DMY">3 April (day first)</option>
              </SelectField>
              <PhoneCountryPicker
                label="Country code for phones without one"
                value={settings.defaultCountry}
                onChange={(defaultCountry) => setSettings((s) => ({ ...s, defaultCountry }))}
              />
            </div>
          </Card>

          <Card>
            <h2 className="text-base font-semibold text-slate-900">Mappable Fields</h2>
            <div className="mt-3">
              <TextField
                label="Search fields"
                type="search"
                placeholder="e.g. zip, value, order"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
              />
            </div>
            {/* Groups fold instead of a nested scroll box: every field stays reachable by the page's own scroll. */}
            <div className="mt-3 space-y-2">
              {FIELD_GROUPS.map((g) => {
                const fields = mappable.filter((f) => f.group === g.group);
                if (!fields.length) return null;
                return (
                  <details
                    key={`${g.group}-${term ? 'search' : 'all'}`}
                    open={!!term || OPEN_GROUPS.has(g.group)}
                    className="group rounded-lg border border-slate-100"
                  >
                    <summary className="cursor-pointer rounded-lg px-2 py-1.5 text-xs font-semibold uppercase tracking-wide text-slate-500 hover:bg-slate-50">
                      {g.label} <span className="font-normal normal-case">({fields.length})</span>
                    </summary>
                    <a
                      href={g.docsUrl}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="ml-2 text-xs font-medium text-brand-700 hover:underline"
                    >
                      {g.label} in Meta docs ↗
                    </a>
                    <ul className="divide-y divide-slate-100 px-2">
                      {fields.map((f) => (
                        <li key={f.key} className="py-1.5 text-sm">
                          {/* The name gets the full width; the description shares its line with the button. */}
                          <span className="block font-medium text-slate-800">
                            {f.label} <FieldKey name={f.key} />
                          </span>
                          <span className="flex items-center justify-between gap-2">
                            <span
                              className="min-w-0 flex-1 truncate text-xs text-slate-500"
                              title={f.description}
                            >
                              {f.description}
                            </span>
                            <Button
                              variant="ghost"
                              className="shrink-0 px-2 py-1 text-xs text-brand-700"
                              onClick={() => addAndFocus(f.key)}
                              aria-label={`Add ${f.key} to Mapped Fields`}
                            >
                              Add to Mapped Fields
                            </Button>
                          </span>
                        </li>
                      ))}
                    </ul>
                  </details>
                );
              })}
              {!mappable.length && <p className="text-sm text-slate-500">No fields match “{search}”.</p>}
            </div>
          </Card>
        </div>
      </div>

      <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 bg-white/95 px-4 py-3 backdrop-blur">
        <p
          ref={footerStatus}
          tabIndex={-1}
          role="status"
          className={`text-sm ${problem || sourceProblems.length ? 'text-amber-700' : 'text-emerald-700'}`}
        >
          {problemText ??
            // "All set" under a warning that Meta will refuse rows would contradict it.
            (sourceProblems.length
              ? 'Every mapped field has a source, but see the warning above: Meta needs more for some rows.'
              : 'All set: every mapped field has a source.')}
        </p>
        <Button ref={continueButton} onClick={continueToValidation} disabled={!!problem || busy}>
          {busy ? 'Saving...' : 'Continue to Validation'}
        </Button>
      </div>
    </section>
  );
}

export function MappedFieldRow({
  row,
  headers,
  samples,
  used,
  onChange,
}: {
  row: MappedRow;
  headers: string[];
  samples: Record<string, string[]>;
  used: Map<string, string>;
  onChange: (f: (rows: MappedRow[]) => MappedRow[]) => void;
}) {
  const def = FIELD_BY_KEY.get(row.field);
  const choices = def ? hardcodedChoices(def) : null;
  const required = (REQUIRED_FIELDS as readonly string[]).includes(row.field);
  const sample = row.mode === 'column' && row.column ? samples[row.column]?.[0] : undefined;
  const id = `map-${row.field}`;
  return (
    <li className="rounded-xl border border-slate-200 p-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0">
          <label htmlFor={id} className="font-medium text-slate-900">
            {def?.label ?? row.field}
          </label>{' '}
          <FieldKey name={row.field} />
        </span>
        {required && (
          <span className="rounded-full bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-700 ring-1 ring-inset ring-red-200">
            Required
          </span>
        )}
        {row.auto && (
          <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700 ring-1 ring-inset ring-brand-100">
            Auto-Mapped
          </span>
        )}
        <span className="ml-auto flex gap-1">
          <Button
            variant="ghost"
            className="whitespace-nowrap px-2 py-1 text-xs"
            onClick={() => onChange((r) => toggleMode(r, row.field))}
          >
            {row.mode === 'column' ? 'Use hardcoded value instead' : 'Select CSV column instead'}
          </Button>
          {!required && (
            <Button
              variant="ghost"
              className="px-2 py-1 text-xs text-red-700"
              onClick={() => onChange((r) => removeField(r, row.field))}
              aria-label={`Remove ${row.field}`}
            >
              Remove
            </Button>
          )}
        </span>
      </div>
      {def && <p className="mt-0.5 text-xs text-slate-500">{def.description}</p>}
      <div className="mt-2">
        {row.mode === 'column' ? (
          <select
            id={id}
            value={row.column}
            onChange={(e) => onChange((r) => updateRow(r, row.field, { column: e.target.value }))}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
          >
            <option value="">Select a CSV column</option>
            {headers.map((h) => {
              const inUse = used.has(h) && used.get(h) !== row.field;
              return (
                <option key={h} value={h} disabled={inUse}>
                  {columnOptionLabel(h, samples[h]?.[0], inUse)}
                </option>
              );
            })}
          </select>
        ) : choices ? (
          <select
            id={id}
            value={row.value}
            onChange={(e) => onChange((r) => updateRow(r, row.field, { value: e.target.value }))}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
          >
            <option value="">Select a value</option>
            {choices.map((v) => (
              <option key={v}>{v}</option>
            ))}
          </select>
        ) : (
          <input
            id={id}
            value={row.value}
            placeholder="Value for every row"
            onChange={(e) => onChange((r) => updateRow(r, row.field, { value: e.target.value }))}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm"
          />
        )}
        {sample !== undefined && (
          <p className="mt-1 truncate text-xs text-slate-500">
            e.g. <span className="font-mono text-slate-700">{sample}</span>
          </p>
        )}
      </div>
    </li>
  );
}
