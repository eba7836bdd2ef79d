import { useEffect, useId, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import type { HardcodedValues, Mappings } from '@backsignal/core/browser';
import { Button, buttonClass } from '../../components/ui/Button.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { useCan } from '../../lib/workspace.tsx';
import { workflowApi } from '../workflow/workflow-api.ts';
import { toPayload, type MappedRow } from './mapping-state.ts';

const TEMPLATES_CACHE = 'backsignal:templates';

/** The 'Mapping Actions' menu: suggestions, clearing, and saved templates (spec §2, §8 messages). */
export function MappingActions(props: {
  rows: MappedRow[];
  onApplySuggestions: () => void;
  onClearSuggestions: () => void;
  onClearAll: () => void;
  /** Applies the template; answers its columns that are not in this file. */
  /** What the template changed is said on the page (TemplateAppliedNote); the toast stays the spec's. */
  onApplyTemplate: (mappings: Mappings, hardcoded: HardcodedValues, name: string) => void;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  /** Closes the panel; focus goes back to the button when it was inside the panel (or asked for). */
  const close = (refocus = true) => {
    setOpen(false);
    if (refocus) toggle.current?.focus();
  };
  // Disclosure behaviour: Escape and a click outside close it; Escape returns focus to the button.
  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent | MouseEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      setOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('mousedown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('mousedown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const [selected, setSelected] = useState('');
  const [confirmDelete, setConfirmDelete] = useState(false);
  // Deleting a template the whole workspace shares is an admin's (README's roles table).
  const canDelete = useCan('admin');
  const [confirmClear, setConfirmClear] = useState(false);
  const [name, setName] = useState('');
  const queryClient = useQueryClient();
  const templates = useQuery({
    queryKey: ['templates'],
    queryFn: async () => {
      const list = await workflowApi.templates();
      localStorage.setItem(TEMPLATES_CACHE, JSON.stringify(list));
      return list;
    },
    initialData: () => JSON.parse(localStorage.getItem(TEMPLATES_CACHE) ?? 'null') ?? undefined,
    initialDataUpdatedAt: 0,
    enabled: open,
  });
  useEffect(() => {
    if (!templates.isError) return;
    console.error('Failed to load saved templates', templates.error);
    toast.error('Failed to load saved templates');
  }, [templates.isError, templates.error]);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['templates'] });
  const act = (f: () => void) => () => {
    f();
    close();
  };

  const run = async (work: () => Promise<unknown>, ok: string, fail: (err: unknown) => string) => {
    try {
      await work();
      toast.success(ok);
      await refresh();
    } catch (err) {
      toast.error(fail(err));
    }
  };
  const payload = toPayload(props.rows);
  const nameOk = name.trim().length > 0 && name.trim().length <= 20;

  return (
    <div className="relative" ref={root}>
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          setOpen((o) => !o);
          setConfirmDelete(false);
          setConfirmClear(false);
        }}
        className={buttonClass('secondary')}
      >
        Mapping Actions <span aria-hidden>▾</span>
      </button>
      {open && (
        <div
          id={panelId}
          role="group"
          aria-label="Mapping actions"
          className="absolute left-0 z-30 mt-2 w-[min(20rem,calc(100vw-2rem))] space-y-3 sm:left-auto sm:right-0 rounded-xl border border-slate-200 bg-white p-4 shadow-xl"
        >
          <div className="grid gap-1">
            <Button variant="ghost" className="justify-start" onClick={act(props.onApplySuggestions)}>
              Apply Suggestions
            </Button>
            <Button variant="ghost" className="justify-start" onClick={act(props.onClearSuggestions)}>
              Clear Suggestions
            </Button>
            <Button
              variant="ghost"
              className="justify-start text-red-700"
              onClick={() => setConfirmClear(true)}
            >
              Clear All Mappings
            </Button>
            {confirmClear && (
              <div
                role="alert"
                className="rounded-lg bg-red-50 p-2 text-xs text-red-800 ring-1 ring-inset ring-red-200"
              >
                <p>This removes every mapped column and hardcoded value. Saved templates stay.</p>
                <div className="mt-2 flex gap-1">
                  <Button variant="danger" className="px-2 py-1 text-xs" onClick={act(props.onClearAll)}>
                    Yes, clear everything
                  </Button>
                  <Button
                    variant="secondary"
                    className="px-2 py-1 text-xs"
                    onClick={() => setConfirmClear(false)}
                  >
                    Cancel
                  </Button>
                </div>
              </div>
            )}
          </div>
          <div className="border-t border-slate-200 pt-3">
            <label
              htmlFor="template-select"
              className="text-xs font-semibold uppercase tracking-wide text-slate-500"
            >
              Saved templates
            </label>
            {templates.isError && <p className="mt-1 text-xs text-red-700">Failed to load saved templates</p>}
            <select
              id="template-select"
              value={selected}
              onChange={(e) => {
                setSelected(e.target.value);
                setConfirmDelete(false);
              }}
              className="mt-1 block w-full rounded-lg border border-slate-300 px-2 py-1.5 text-sm"
            >
              <option value="">
                {templates.data?.length ? 'Choose a template' : 'No saved templates yet'}
              </option>
              {templates.data?.map((t: { id: string; name: string }) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            <div className="mt-2 flex flex-wrap gap-1">
              <Button
                variant="secondary"
                className="px-2 py-1 text-xs"
                disabled={!selected}
                onClick={async () => {
                  try {
                    const t = await workflowApi.template(selected);
                    props.onApplyTemplate(t.mappings, t.hardcoded, t.name);
                    toast.success('Template applied!');
                    close();
                  } catch (err) {
                    toast.error(
                      `Failed to apply template: ${errorMessage(err, err instanceof Error ? err.message : 'unknown error')}`,
                    );
                  }
                }}
              >
                Apply
              </Button>
              <Button
                variant="secondary"
                className="px-2 py-1 text-xs"
                disabled={!selected}
                onClick={() =>
                  run(
                    () =>
                      workflowApi.updateTemplate(selected, {
                        mappings: payload.mappings,
                        hardcoded: payload.hardcodedValues,
                      }),
                    'Template updated!',
                    () => 'Failed to update template',
                  )
                }
              >
                Update with current
              </Button>
              <Button
                variant="secondary"
                className="px-2 py-1 text-xs"
                disabled={!selected || !nameOk}
                onClick={() =>
                  run(
                    () => workflowApi.updateTemplate(selected, { name: name.trim() }),
                    'Mapping renamed!',
                    () => 'Failed to rename template',
                  )
                }
              >
                Rename to name below
              </Button>
              {canDelete && (
                <Button
                  variant="danger-outline"
                  className="px-2 py-1 text-xs"
                  disabled={!selected}
                  onClick={() => setConfirmDelete(true)}
                >
                  Delete
                </Button>
              )}
            </div>
            {confirmDelete && selected && (
              <div
                role="alert"
                className="mt-2 rounded-lg bg-red-50 p-2 text-xs text-red-800 ring-1 ring-inset ring-red-200"
              >
                <p>
                  Delete the template{' '}
                  <strong>{templates.data?.find((t: { id: string }) => t.id === selected)?.name}</strong> for
                  good?
                </p>
                <div className="mt-2 flex gap-1">
                  <Button
                    variant="danger"
                    className="px-2 py-1 text-xs"
                    onClick={() =>
                      run(
                        async () => {
                          await workflowApi.deleteTemplate(selected);
                          setSelected('');
                        },
                        'Mapping deleted!',
                        () => 'Failed to delete template',
                      ).finally(() => setConfirmDelete(false))
                    }
                  >
                    Delete template
                  </Button>
                  <Button
                    variant="secondary"
                    className="px-2 py-1 text-xs"
                    onClick={() => setConfirmDelete(false)}
                  >
                    Cancel
                  </Button>
                </div>
              </div>
            )}
          </div>
          <div className="border-t border-slate-200 pt-3">
            <label
              htmlFor="template-name"
              className="text-xs font-semibold uppercase tracking-wide text-slate-500"
            >
              Template name (max 20 characters)
            </label>
            <div className="mt-1 flex gap-2">
              <input
                id="template-name"
                maxLength={20}
                value={name}
                onChange={(e) => setName(e.target.value)}
                className="min-w-0 flex-1 rounded-lg border border-slate-300 px-2 py-1.5 text-sm"
                placeholder="e.g. CRM export"
              />
              <Button
                className="px-3 py-1 text-xs"
                disabled={!nameOk}
                onClick={() =>
                  run(
                    () =>
                      workflowApi.createTemplate({
                        name: name.trim(),
                        mappings: payload.mappings,
                        hardcoded: payload.hardcodedValues,
                      }),
                    'Mapping saved as new!',
                    (err) => errorMessage(err, 'Failed to save new mapping'),
                  )
                }
              >
                Save as new
              </Button>
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
