import { describe, expect, it } from 'vitest';
import { applyTemplate, fromSaved } from './mapping-state.ts';
import { changeLines, templateChanges, templateChangesHeadline } from './template-changes.ts';

describe('templateChanges', () => {
  const file = ['Email', 'Customer Email', 'Billing Phone', 'Created', 'Total'];

  it('names the fields it changed and those it left unmapped', () => {
    const before = fromSaved(
      { Email: 'email', Created: 'event_time', Total: 'value' },
      { action_source: 'website' },
    );
    const template = {
      mappings: { 'Customer Email': 'email', Created: 'event_time', Phone: 'phone', Source: 'action_source' },
      hardcoded: { event_name: 'Purchase' },
    };
    const applied = applyTemplate(before, file, template.mappings, template.hardcoded);
    const c = templateChanges('Shopify orders', before, applied.rows, template, applied.missing);
    expect(changeLines(c)).toEqual([
      'email: Email → Customer Email',
      'value: Total → not mapped',
      'phone: column "Phone" is not in this file (left unmapped)',
      'action_source: column "Source" is not in this file (kept fixed value "website")',
    ]);
    expect(templateChangesHeadline(c)).toBe(
      'Template "Shopify orders" applied: 2 fields changed, 1 field left unmapped, 1 field kept its current mapping.',
    );
  });

  it('a template that only fills empty fields changes nothing worth listing', () => {
    const before = fromSaved({}, {});
    const template = { mappings: { Email: 'email' }, hardcoded: {} };
    const applied = applyTemplate(before, file, template.mappings, template.hardcoded);
    const c = templateChanges('Leads', before, applied.rows, template, applied.missing);
    expect(c).toEqual({ name: 'Leads', changed: [], missing: [] });
    expect(templateChangesHeadline(c)).toBe('Template "Leads" applied.');
  });
});
