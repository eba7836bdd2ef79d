import { describe, expect, it } from 'vitest';
import { mappingProblem, pruneMappings } from './rules.ts';
import { SUGGESTION_TARGETS, suggestField, suggestMappings, toleranceOf } from './suggest.ts';

describe('suggestField', () => {
  it.each([
    ['em', 'email'],
    ['E_Mail', 'email'],
    ['mail', 'email'],
    ['ph', 'phone'],
    ['TEL', 'phone'],
    ['fn', 'first_name'],
    ['first', 'first_name'],
    ['ln', 'last_name'],
    ['last', 'last_name'],
    ['dob', 'db'],
    ['DateOfBirth', 'db'],
    ['ct', 'city'],
    ['st', 'state'],
    ['region', 'state'],
    ['postal', 'zip'],
    ['postcode', 'zip'],
    ['postal_code', 'zip'],
    ['ip', 'client_ip_address'],
    ['client_ip', 'client_ip_address'],
    ['ua', 'client_user_agent'],
    ['val', 'value'],
    ['price', 'value'],
    ['revenue', 'value'],
    ['curr', 'currency'],
    ['src', 'action_source'],
    ['sku', 'content_ids'],
    ['productid', 'content_ids'],
    ['campaign', 'external_id'],
    ['externalid', 'external_id'],
  ])('alias %s → %s', (header, field) => expect(suggestField(header)).toBe(field));

  it.each([
    ['email', 'email'],
    ['Email', 'email'],
    ['phone', 'phone'],
    ['event_name', 'event_name'],
    ['Event Time', 'event_time'],
    ['first_name', 'first_name'],
    ['zip', 'zip'],
    ['country', 'country'],
    ['currency', 'currency'],
    ['fbc', 'fbc'],
    ['emails', 'email'],
    ['E-mail', 'email'],
  ])('fuzzy %s → %s', (header, field) => expect(suggestField(header)).toBe(field));

  it('breaks a fuzzy tie towards a required field, so an "Event" column is not taken for event_id', () => {
    expect(suggestField('Event')).toBe('event_name');
    expect(suggestMappings(['Email', 'Event', 'event_id']).forward).toEqual({
      Email: 'email',
      Event: 'event_name',
      event_id: 'event_id',
    });
  });

  it.each(['notes', 'quantity', 'sales rep', '', '   ', 'xyz'])('no suggestion for %j', (header) =>
    expect(suggestField(header)).toBeNull(),
  );

  it('uses the per-field tolerance', () => {
    expect(toleranceOf('email')).toBe(0.5);
    expect(toleranceOf('zip')).toBe(0.1);
  });
});

describe('suggestMappings', () => {
  it('maps each field at most once, first header wins, and gives both directions', () => {
    const r = suggestMappings(['Email', 'em', 'Phone', 'Notes', 'price', 'revenue']);
    expect(r.forward).toEqual({ Email: 'email', Phone: 'phone', price: 'value' });
    expect(r.reverse).toEqual({ email: 'Email', phone: 'Phone', value: 'price' });
  });
});

describe('mappingProblem (spec §5 order)', () => {
  const full = { c1: 'event_name', c2: 'event_time', c3: 'action_source', c4: 'email' };
  it('names the missing required fields', () => {
    expect(mappingProblem({ mappings: { c4: 'email' }, hardcoded: {} })).toBe(
      'Missing required fields: event_name, event_time, action_source',
    );
  });
  it('counts a hardcoded value only when it is not blank', () => {
    const m = { c1: 'event_name', c2: 'event_time', c4: 'email' };
    expect(mappingProblem({ mappings: m, hardcoded: { action_source: '  ' } })).toBe(
      'Missing required fields: action_source',
    );
    expect(mappingProblem({ mappings: m, hardcoded: { action_source: 'physical_store' } })).toBeNull();
  });
  it('needs email or phone', () => {
    const { c4: _e, ...noId } = full;
    expect(mappingProblem({ mappings: noId, hardcoded: {} })).toBe(
      'You must map at least one user identifier field eg. email, phone.',
    );
    expect(mappingProblem({ mappings: noId, hardcoded: { phone: '+16505551212' } })).toBeNull();
  });
  it('needs every listed field to be mapped or hardcoded', () => {
    expect(mappingProblem({ mappings: full, hardcoded: {}, mappedFields: ['value'] })).toBe(
      'All fields in the Mapped Fields section must be mapped or hardcoded.',
    );
    expect(mappingProblem({ mappings: full, hardcoded: {}, mappedFields: ['email'] })).toBeNull();
  });
});

describe('pruneMappings', () => {
  it('drops mappings of columns that are gone', () => {
    expect(pruneMappings(['a', 'b'], { a: 'email', c: 'phone' })).toEqual({
      mappings: { a: 'email' },
      removed: ['c'],
    });
  });
});

describe('headers named like built-in object properties', () => {
  const targets: readonly string[] = SUGGESTION_TARGETS;
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    '%j is suggested nothing outside the targets',
    (header) => {
      const field = suggestField(header);
      expect(field === null || targets.includes(field)).toBe(true);
      const { forward, reverse } = suggestMappings([header, 'email']);
      expect(Object.keys(reverse).every((f) => targets.includes(f))).toBe(true);
      expect(forward.email).toBe('email');
    },
  );
});

describe('real export names (decision 0050)', () => {
  it.each([
    ['Billing City', 'city'],
    ['Customer Email', 'email'],
    ['Card Address Zip', 'zip'],
    ['State/Region', 'state'],
    ['Zip/Postal Code', 'zip'],
    ['Country/Region', 'country'],
    ['Email Address', 'email'],
    ['Phone Number', 'phone'],
    ['Postal Code', 'zip'],
    ['Record ID', 'external_id'],
    ['Lead ID', 'external_id'],
    ['Customer ID', 'external_id'],
    ['Total', 'value'],
    ['Amount', 'value'],
    ['Invoice Total', 'value'],
    ['Created Date', 'event_time'],
    ['Paid at', 'event_time'],
    ['Timestamp', 'event_time'],
    ['created_time', 'event_time'],
    ['Order ID', 'order_id'],
    ['Invoice Number', 'order_id'],
    ['Transaction ID', 'order_id'],
    ['Job #', 'order_id'],
    ['emial', 'email'],
    ['frist_name', 'first_name'],
  ])('%s → %s (in a row with an email column)', (header, field) =>
    expect(suggestField(header, [header, 'email'])).toBe(field),
  );

  it.each([
    'Name',
    'Source',
    'Lead Source',
    'Fee',
    'Tax',
    'Tip',
    'Amount Refunded',
    'Lifecycle Stage',
    'Title',
    'Location',
    'Contact owner',
    'Created By',
    'Card ID',
    'Staff ID',
    'Event Type Name',
    'Lineitem price',
    'Annual Revenue',
    'Postal Address',
    'Email Opt Out',
    'Phone Verified',
    'Total Spent',
    'Amount Due',
    'Tracking Number',
  ])('%j gets no suggestion, alone or in an order export', (header) => {
    expect(suggestField(header)).toBeNull();
    expect(suggestMappings([header, 'Email', 'Total', 'Order ID']).forward[header]).toBeUndefined();
  });

  it('reads a bare "ID" from the row: an order in an order export, a lead in a Lead Ads download', () => {
    expect(suggestMappings(['Id', 'Email', 'Total']).forward.Id).toBe('order_id');
    expect(suggestMappings(['id', 'created_time', 'form_id', 'email']).forward.id).toBe('lead_id');
    expect(suggestMappings(['ID', 'Email', 'Phone']).forward.ID).toBe('external_id');
    expect(suggestField('ID')).toBeNull();
  });

  it('keeps "campaign" as an id only where no other column speaks of campaigns or orders', () => {
    expect(suggestMappings(['email', 'campaign']).forward.campaign).toBe('external_id');
    expect(suggestMappings(['Campaign', 'Campaign Category', 'Email']).forward.Campaign).toBeUndefined();
    expect(suggestMappings(['Campaign', 'Total', 'Email']).forward.Campaign).toBeUndefined();
  });

  it('gives a contested field to the surer column, whatever the column order', () => {
    const orders = ['Created at', 'Billing Phone', 'Lineitem price', 'Paid at', 'Phone', 'Total'];
    expect(suggestMappings(orders).reverse).toEqual({
      event_time: 'Paid at',
      phone: 'Phone',
      value: 'Total',
    });
    expect(suggestMappings([...orders].reverse()).reverse).toEqual({
      event_time: 'Paid at',
      phone: 'Phone',
      value: 'Total',
    });
  });

  it('suggests order_id and lead_id', () => {
    expect(SUGGESTION_TARGETS).toContain('order_id');
    expect(SUGGESTION_TARGETS).toContain('lead_id');
  });
});
