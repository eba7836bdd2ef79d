import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { Link, useNavigate } from '../../lib/ws-router.tsx';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import type {
  FileSettings,
  SourceConnection,
  SourceDetail,
  SourceKind,
  SourceSchedule,
  TestFetchResponse,
} from '@backsignal/contracts';
import { sameSecretTarget } from '@backsignal/contracts';
import { FIELDS, mappingProblem } from '@backsignal/core/browser';
import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { Spinner } from '../../components/ui/Spinner.tsx';
import { ApiError } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { MappedFieldRow } from '../mapping/MapColumnsPage.tsx';
import { MappingActions } from '../mapping/MappingActions.tsx';
import { PhoneCountryPicker, TimeZonePicker } from '../mapping/SettingsPickers.tsx';
import {
  addField,
  applySuggestions,
  applyTemplate,
  clearAll,
  clearSuggestions,
  fromSaved,
  toPayload,
  type MappedRow,
} from '../mapping/mapping-state.ts';
import { workflowApi } from '../workflow/workflow-api.ts';
import { ConnectionFields } from './ConnectionFields.tsx';
import { emptyConnection, fromView, KIND_TEXT, KINDS, missingFields } from './connection-form.ts';
import { FirstRows, HostKeyChanged } from './FirstRows.tsx';
import { problemLines, saveProblems, type SaveProblems } from './save-form.ts';
import { ScheduleFields } from './ScheduleFields.tsx';
import { sourcesApi } from './sources-api.ts';

const STEPS = ['Kind', 'Connect', 'Map columns', 'Schedule and pixel'];
const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
type Fetched = Extract<TestFetchResponse, { ok: true }>;
type Failed = Extract<TestFetchResponse, { ok: false }>;

/** /sources/new and /sources/:id/edit: kind → connect and "Test fetch" → map columns → schedule and pixel. */
export function SourceWizard() {
  const { id } = useParams();
  const existing = useQuery({ queryKey: ['source', id], queryFn: () => sourcesApi.get(id!), enabled: !!id });
  usePageMeta({ title: `${id ? 'Edit source' : 'New source'} | Backsignal` });
  if (id && !existing.data) return existing.isError ? <p role="alert">Source not found.</p> : <Spinner />;
  return <Wizard existing={existing.data} />;
}

function Wizard({ existing }: { existing?: SourceDetail }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [step, setStep] = useState(existing ? 1 : 0);
  // The button that changed the step is gone with its step: focus goes to the new step's heading, so keyboard
  // and screen-reader users go on from there instead of from the top of the page.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    headingRef.current?.focus();
  }, [step]);
  const stepHeading = {
    ref: headingRef,
    tabIndex: -1,
    className: 'text-base font-semibold text-slate-900 focus:outline-none',
  };
  const [conn, setConnState] = useState<SourceConnection>(
    existing ? fromView(existing.connection) : emptyConnection('csv_url'),
  );
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [fetched, setFetched] = useState<Fetched | null>(null);
  const [failure, setFailure] = useState<Failed | null>(null);
  // The stored secret serves only while the kind and identity (host, user, endpoint, key ID) are the saved ones.
  const secretStored = !!existing?.connection.hasSecret && sameSecretTarget(existing.connection, conn);
  // A masked value in the URL stands for the stored one, which goes only to the saved URL's origin and path.
  const savedUrl = existing?.connection.kind === 'csv_url' ? existing.connection.url : null;
  // What was fetched came from the connection as it was: once it changes (another server, folder, key), the
  // rows, the host key and the way on to mapping wait for a new Test fetch.
  const setConn = (c: SourceConnection) => {
    setConnState(c);
    setFieldErrors({});
    setFetched(null);
    setFailure(null);
  };
  const pickKind = (kind: SourceKind) => {
    if (kind !== conn.kind)
      setConn(existing?.connection.kind === kind ? fromView(existing.connection) : emptyConnection(kind));
    setStep(1);
  };
  const [testing, setTesting] = useState(false);
  const [rows, setRows] = useState<MappedRow[]>(() =>
    existing ? fromSaved(existing.mappings, existing.hardcodedValues) : clearAll(),
  );
  const [settings, setSettings] = useState<FileSettings>(
    existing?.settings ?? { timeZone: localZone(), dateOrder: 'MDY', defaultCountry: 'US' },
  );
  const [name, setName] = useState(existing?.name ?? '');
  const [pixelAccountId, setPixelAccountId] = useState(existing?.pixelAccount?.id ?? '');
  const [testEventCode, setTestEventCode] = useState(existing?.testEventCode ?? '');
  const [schedule, setSchedule] = useState<SourceSchedule>(
    existing?.schedule ?? { every: 'day', time: '08:00' },
  );
  const [timeZone, setTimeZone] = useState(existing?.timeZone ?? localZone());
  const [saving, setSaving] = useState(false);
  const accounts = useQuery({ queryKey: ['accounts'], queryFn: workflowApi.accounts });
  useEffect(() => {
    if (!pixelAccountId && accounts.data?.[0]) setPixelAccountId(accounts.data[0].id);
  }, [accounts.data, pixelAccountId]);

  const testFetch = async (connection = conn) => {
    const missing = missingFields(connection, secretStored, savedUrl);
    setFieldErrors(missing);
    if (Object.keys(missing).length) return;
    setTesting(true);
    setFailure(null);
    setFetched(null);
    try {
      const res = await sourcesApi.testFetch({ connection, sourceId: existing?.id });
      if (res.ok) {
        setFetched(res);
        // SFTP: the host key seen now is the one saved with the source (trust on first use).
        if (connection.kind === 'sftp' && res.hostKey && !connection.hostKey)
          setConnState({ ...connection, hostKey: res.hostKey });
        // A new source starts from the suggestions for these columns; an edited one keeps its mapping.
        if (!existing) setRows(applySuggestions(clearAll(), res.headers, res.samples));
      } else setFailure(res);
    } catch (err) {
      setFailure({ ok: false, reason: errorMessage(err, 'Test fetch failed.') });
    } finally {
      setTesting(false);
    }
  };
  const trustNewKey = (hostKey: string) => {
    if (conn.kind !== 'sftp') return;
    const next = { ...conn, hostKey };
    setConnState(next);
    void testFetch(next);
  };

  const payload = useMemo(() => toPayload(rows), [rows]);
  const problem = mappingProblem({
    mappings: payload.mappings,
    hardcoded: payload.hardcodedValues,
    mappedFields: rows.map((r) => r.field),
  });
  const used = new Map(rows.filter((r) => r.mode === 'column' && r.column).map((r) => [r.column, r.field]));
  const addable = FIELDS.filter((f) => !rows.some((r) => r.field === f.key));

  // "Save source" says what it needs: before pressing, which fields are still missing; when pressed too early
  // or refused by the server, the reason beside each field and in a list above the button (focused).
  const problems = saveProblems({
    name,
    pixelAccountId,
    accountIds: accounts.data?.map((a) => a.id),
    schedule,
  });
  const needed = problemLines(problems).map((l) => l.slice(0, l.indexOf(':')));
  const [serverErrors, setServerErrors] = useState<SaveProblems>({});
  const [refusal, setRefusal] = useState<{ title: string; lines: string[] } | null>(null);
  const [pressed, setPressed] = useState(false);
  const shownErrors: SaveProblems = { ...serverErrors, ...(pressed ? problems : {}) };
  const refusalRef = useRef<HTMLDivElement>(null);
  const needId = useId();
  useEffect(() => {
    if (refusal) refusalRef.current?.focus();
  }, [refusal]);
  // What the user fixes clears the list; the fields keep saying what is still wrong.
  useEffect(() => {
    setRefusal(null);
    setServerErrors({});
  }, [name, pixelAccountId, schedule, timeZone]);

  const trySave = () => {
    setPressed(true);
    const lines = problemLines(problems);
    if (lines.length) return setRefusal({ title: 'To save this source:', lines });
    return save();
  };

  const save = async () => {
    setSaving(true);
    try {
      const body = {
        name,
        connection: conn,
        ...payload,
        settings,
        pixelAccountId,
        testEventCode: testEventCode || null,
        schedule,
        timeZone,
        errorThreshold: existing?.errorThreshold ?? 0.2,
      };
      const sourceId = existing
        ? (await sourcesApi.update(existing.id, body), existing.id)
        : (await sourcesApi.create(body)).id;
      toast.success('Source saved');
      await queryClient.invalidateQueries({ queryKey: ['sources'] });
      await queryClient.invalidateQueries({ queryKey: ['source', sourceId] });
      navigate(`/sources/${sourceId}`);
    } catch (err) {
      const message = errorMessage(err, 'Failed to save the source.');
      const fields = err instanceof ApiError ? (err.fields ?? {}) : {};
      const mine: SaveProblems = {
        ...(fields.name && { name: fields.name }),
        ...(fields.pixelAccountId && { pixelAccountId: fields.pixelAccountId }),
      };
      setServerErrors(mine);
      const lines = problemLines(mine);
      setRefusal({ title: 'The source was not saved:', lines: lines.length ? lines : [message] });
      toast.error(message);
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">
          {existing ? `Edit ${existing.name}` : 'New source'}
        </h1>
        <ol className="mt-3 flex flex-wrap gap-2 text-xs" aria-label="Steps">
          {STEPS.map((s, i) => (
            <li
              key={s}
              aria-current={i === step ? 'step' : undefined}
              className={`rounded-full px-3 py-1 font-medium ${i === step ? 'bg-brand-600 text-white' : i < step ? 'bg-brand-50 text-brand-700' : 'bg-slate-100 text-slate-500'}`}
            >
              {i + 1}. {s}
            </li>
          ))}
        </ol>
      </div>

      {step === 0 && (
        <Card className="space-y-4">
          <h2 {...stepHeading}>What do you want to connect?</h2>
          <div className="grid grid-cols-1 gap-3 md:grid-cols-3">
            {KINDS.map((k) => (
              <button
                key={k.kind}
                type="button"
                onClick={() => pickKind(k.kind)}
                className="block w-full rounded-xl border border-slate-200 p-4 text-left hover:border-brand-600 hover:bg-brand-50 focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <span className="font-semibold text-slate-900">{k.title}</span>
                <span className="mt-1 block text-sm text-slate-600">{k.text}</span>
              </button>
            ))}
          </div>
        </Card>
      )}

      {step === 1 && (
        <Card className="space-y-4">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h2 {...stepHeading}>Connect: {KIND_TEXT[conn.kind]}</h2>
            <button
              type="button"
              className="text-sm text-brand-700 hover:underline"
              onClick={() => setStep(0)}
            >
              Change kind
            </button>
          </div>
          <ConnectionFields conn={conn} onChange={setConn} secretStored={secretStored} errors={fieldErrors} />
          <div className="flex flex-wrap gap-2">
            <Button variant="secondary" onClick={() => void testFetch()} disabled={testing}>
              {testing ? 'Fetching...' : 'Test fetch'}
            </Button>
            <Button onClick={() => setStep(2)} disabled={!fetched}>
              Continue to mapping
            </Button>
          </div>
          {failure && (
            <div
              role="alert"
              className="space-y-2 rounded-lg bg-red-50 p-3 text-sm text-red-700 [overflow-wrap:anywhere]"
            >
              <p>{failure.reason}</p>
              {failure.hostKey &&
                conn.kind === 'sftp' &&
                conn.hostKey &&
                failure.hostKey !== conn.hostKey && (
                  <HostKeyChanged seen={failure.hostKey} onTrust={() => trustNewKey(failure.hostKey!)} />
                )}
            </div>
          )}
          {fetched && <FirstRows fetched={fetched} />}
        </Card>
      )}

      {step === 2 && fetched && (
        <Card className="space-y-4">
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div>
              <h2 {...stepHeading}>Map columns</h2>
              <p className="text-sm text-slate-600">
                Every run reads the file with this mapping. A saved template applies from Mapping Actions.
              </p>
            </div>
            <MappingActions
              rows={rows}
              onApplySuggestions={() => setRows((r) => applySuggestions(r, fetched.headers, fetched.samples))}
              onClearSuggestions={() => setRows(clearSuggestions)}
              onClearAll={() => setRows(clearAll())}
              onApplyTemplate={(m, h) => {
                const applied = applyTemplate(rows, fetched.headers, m, h);
                setRows(applied.rows);
                return applied.missing;
              }}
            />
          </div>
          <ul className="space-y-3">
            {rows.map((row) => (
              <MappedFieldRow
                key={row.field}
                row={row}
                headers={fetched.headers}
                samples={fetched.samples}
                used={used}
                onChange={(f) => setRows(f)}
              />
            ))}
          </ul>
          <SelectField
            label="Add a field"
            value=""
            onChange={(e) => e.target.value && setRows((r) => addField(r, e.target.value))}
          >
            <option value="">Choose a field to add</option>
            {addable.map((f) => (
              <option key={f.key} value={f.key}>
                {f.label}
              </option>
            ))}
          </SelectField>
          {/* The upload flow's file settings, with its pickers and words: a run reads the file as an upload would. */}
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
            <TimeZonePicker
              label="Time zone for dates without one"
              value={settings.timeZone}
              onChange={(timeZone) => setSettings({ ...settings, timeZone })}
            />
            <SelectField
              label="Dates like 03/04/2026 mean"
              value={settings.dateOrder}
              onChange={(e) => setSettings({ ...settings, dateOrder: e.target.value as 'MDY' | 'DMY' })}
            >
              <option value="MDY">March 4 (month first)</option>
              <option value="DMY">3 April (day first)</option>
            </SelectField>
            <PhoneCountryPicker
              label="Country code for phones without one"
              value={settings.defaultCountry}
              onChange={(defaultCountry) => setSettings({ ...settings, defaultCountry })}
            />
          </div>
          {problem && <p className="text-sm text-red-700">{problem}</p>}
          <div className="flex gap-2">
            <Button variant="secondary" onClick={() => setStep(1)}>
              Back
            </Button>
            <Button onClick={() => setStep(3)} disabled={!!problem}>
              Continue
            </Button>
          </div>
        </Card>
      )}

      {step === 3 && (
        <Card className="space-y-4">
          <h2 {...stepHeading}>Schedule and pixel</h2>
          <TextField
            label="Name"
            value={name}
            placeholder="Leads sheet"
            error={shownErrors.name}
            onChange={(e) => setName(e.target.value)}
          />
          <ScheduleFields value={schedule} onChange={setSchedule} timeError={shownErrors.time} />
          <TimeZonePicker label="Time zone of the schedule" value={timeZone} onChange={setTimeZone} />
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <SelectField
              label="Pixel account"
              value={pixelAccountId}
              error={shownErrors.pixelAccountId}
              onChange={(e) => setPixelAccountId(e.target.value)}
            >
              {(accounts.data ?? []).map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name || a.pixelId} ({a.pixelId})
                </option>
              ))}
            </SelectField>
            <TextField
              label="Test event code (optional)"
              value={testEventCode}
              onChange={(e) => setTestEventCode(e.target.value)}
            />
          </div>
          {accounts.data?.length === 0 && (
            <p className="text-sm text-slate-700">
              No pixel account yet:{' '}
              <Link to="/pixel-accounts" className="text-brand-700 hover:underline">
                add one on Pixel Accounts
              </Link>
              , then come back to save.
            </p>
          )}
          {refusal && (
            <div
              ref={refusalRef}
              tabIndex={-1}
              role="alert"
              className="rounded-lg bg-red-50 p-3 text-sm text-red-700 focus:outline-none [overflow-wrap:anywhere]"
            >
              <p className="font-semibold">{refusal.title}</p>
              <ul className="mt-1 list-disc pl-5">
                {refusal.lines.map((l) => (
                  <li key={l}>{l}</li>
                ))}
              </ul>
            </div>
          )}
          <div className="flex flex-wrap items-center gap-2">
            <Button variant="secondary" onClick={() => setStep(2)}>
              Back
            </Button>
            <Button onClick={() => void trySave()} disabled={saving} aria-describedby={needId}>
              {saving ? 'Saving...' : 'Save source'}
            </Button>
            {!refusal && needed.length > 0 && (
              <p id={needId} className="text-sm text-slate-600">
                Still needed: {needed.join(', ')}.
              </p>
            )}
          </div>
        </Card>
      )}
    </section>
  );
}
