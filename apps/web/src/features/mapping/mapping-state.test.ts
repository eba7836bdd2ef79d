import { describe, expect, it } from 'vitest';
import {
  addField,
  applySuggestions,
  autoMapped,
  clearAll,
  clearSuggestions,
  fromSaved,
  markAuto,
  removeField,
  toggleMode,
  toPayload,
  updateRow,
} from './mapping-state.ts';

const headers = ['Email', 'Phone', 'Event', 'notes'];

describe('mapping state', () => {
  it('starts with the required fields and merges suggestions as auto-mapped', () => {
    const rows = applySuggestions(clearAll(), headers);
    // 'Event' ties event_id, event_name and event_time under the spec's fuzzy rule; the tie goes to event_name.
    expect(rows.map((r) => r.field)).toEqual(['event_name', 'event_time', 'action_source', 'email', 'phone']);
    expect(rows.find((r) => r.field === 'event_name')).toMatchObject({ column: 'Event', auto: true });
    expect(rows.find((r) => r.field === 'email')).toMatchObject({ column: 'Email', auto: true });
    expect(toPayload(rows).mappings).toEqual({ Email: 'email', Phone: 'phone', Event: 'event_name' });
  });

  it('does not reuse a column or overwrite a user choice when suggestions are applied again', () => {
    let rows = applySuggestions(clearAll(), headers);
    rows = updateRow(rows, 'email', { column: 'notes' });
    rows = applySuggestions(rows, headers);
    expect(rows.find((r) => r.field === 'email')).toMatchObject({ column: 'notes', auto: false });
  });

  it('clears only auto-mapped entries, keeping required fields', () => {
    let rows = applySuggestions(clearAll(), headers);
    rows = updateRow(rows, 'phone', { column: 'Phone' });
    rows = clearSuggestions(rows);
    expect(rows.map((r) => r.field)).toEqual(['event_name', 'event_time', 'action_source', 'phone']);
    expect(rows.every((r) => !r.auto)).toBe(true);
  });

  it('never removes required fields; switching mode clears the other value', () => {
    let rows = addField(clearAll(), 'value');
    rows = removeField(rows, 'event_name');
    expect(rows.map((r) => r.field)).toContain('event_name');
    rows = updateRow(rows, 'action_source', { column: 'Event' });
    rows = toggleMode(rows, 'action_source');
    expect(rows.find((r) => r.field === 'action_source')).toMatchObject({ mode: 'hardcoded', column: '' });
    rows = updateRow(rows, 'action_source', { value: 'physical_store' });
    expect(toPayload(rows)).toEqual({ mappings: {}, hardcodedValues: { action_source: 'physical_store' } });
  });

  it('rebuilds the list from a saved mapping', () => {
    const rows = fromSaved({ Email: 'email' }, { action_source: 'website' });
    expect(rows.map((r) => [r.field, r.mode])).toEqual([
      ['event_name', 'column'],
      ['event_time', 'column'],
      ['action_source', 'hardcoded'],
      ['email', 'column'],
    ]);
  });

  it('flags again only the saved rows still holding the suggested column', () => {
    let rows = applySuggestions(clearAll(), headers);
    rows = updateRow(rows, 'phone', { column: 'notes' });
    const auto = autoMapped(rows);
    expect(auto).toEqual({ email: 'Email', event_name: 'Event' });
    const { mappings, hardcodedValues } = toPayload(rows);
    const back = markAuto(fromSaved(mappings, hardcodedValues), auto);
    expect(back.filter((r) => r.auto).map((r) => r.field)).toEqual(['event_name', 'email']);
    // Same field on another column than the one suggested: the user's own choice, not flagged.
    expect(markAuto(fromSaved({ notes: 'email' }, {}), auto).some((r) => r.auto)).toBe(false);
  });
});
