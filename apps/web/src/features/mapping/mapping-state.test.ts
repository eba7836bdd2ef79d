import { describe, expect, it } from 'vitest';
import {
  addField,
  applySuggestions,
  applyTemplate,
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

  it('applies a template; fields whose template column is missing keep their suggestion', () => {
    const file = ['Email', 'Paid at', 'Total', 'Phone'];
    const before = applySuggestions(clearAll(), file);
    const template = {
      'E-mail': 'email',
      'Created Date': 'event_time',
      Total: 'value',
      Source: 'action_source',
    };
    const { rows, missing } = applyTemplate(before, file, template, { event_name: 'Purchase' });
    expect(missing).toEqual(['E-mail', 'Created Date', 'Source']);
    const byField = Object.fromEntries(rows.map((r) => [r.field, r]));
    expect(byField.email).toMatchObject({ column: 'Email', auto: true });
    expect(byField.event_time).toMatchObject({ column: 'Paid at', auto: true });
    expect(byField.value).toMatchObject({ column: 'Total', auto: false });
    expect(byField.event_name).toMatchObject({ mode: 'hardcoded', value: 'Purchase' });
    expect(byField.action_source).toMatchObject({ column: '', value: '' });
    // A field the template does not name is not brought back: the template replaces the mapping.
    expect(byField.phone).toBeUndefined();
  });

  it('does not keep a suggestion whose column the template gives to another field', () => {
    const file = ['Email', 'Notes'];
    const before = applySuggestions(clearAll(), file);
    const { rows } = applyTemplate(before, file, { Email: 'external_id', Mail: 'email' }, {});
    expect(rows.find((r) => r.field === 'external_id')).toMatchObject({ column: 'Email' });
    expect(rows.find((r) => r.field === 'email')).toBeUndefined();
  });

  it('lists required fields first, then identifiers, then the rest', () => {
    const rows = fromSaved({ Total: 'value', Zip: 'zip', Email: 'email', When: 'event_time' }, {});
    expect(rows.map((r) => r.field)).toEqual([
      'event_name',
      'event_time',
      'action_source',
      'email',
      'zip',
      'value',
    ]);
  });
});
