import { describe, expect, it } from 'vitest';
import { choiceMessage, suggestField, suggestMappings } from './suggest.ts';

const SHOPIFY_ORDERS = [
  'Name',
  'Email',
  'Financial Status',
  'Paid at',
  'Currency',
  'Total',
  'Lineitem name',
  'Billing Name',
  'Billing Phone',
  'Shipping Name',
  'Shipping Phone',
  'Payment Terms Name',
  'Phone',
];

describe('whole names (decision 0097)', () => {
  it.each([
    ['Billing Name', 'full_name'],
    ['Customer Name', 'full_name'],
    ['Full Name', 'full_name'],
    ['full_name', 'full_name'],
    ['Contact Name', 'full_name'],
    ['Name (Billing)', 'full_name'],
    ['Invitee Name', 'full_name'],
  ])('%s → %s', (header, field) => expect(suggestField(header, [header, 'Email'])).toBe(field));

  it.each([
    'Product Name',
    'Company Name',
    'Lineitem name',
    'Campaign name',
    'Form Name',
    'Ad Name',
    'Item Name',
    'Deal Name',
    'User Name',
    'Username',
    'Payment Terms Name',
    'Tax 1 Name',
    'Event Type Name',
  ])('%j is no person’s name', (header) => {
    expect(suggestField(header, [header, 'Email'])).not.toBe('full_name');
    expect(suggestMappings([header, 'Email', 'Phone']).forward[header]).toBeUndefined();
  });

  it('reads a bare "Name" as a person’s in a list of people, never in an order export', () => {
    expect(suggestMappings(['Name', 'Email']).forward.Name).toBe('full_name');
    expect(suggestMappings(['Name', 'Email', 'Total']).forward.Name).toBeUndefined();
    expect(suggestField('Name')).toBeNull();
  });

  it('gives a Shopify order’s "Billing Name" to full_name, and its order "Name" nothing', () => {
    const { forward } = suggestMappings(SHOPIFY_ORDERS);
    expect(forward['Billing Name']).toBe('full_name');
    expect(forward.Name).toBeUndefined();
    expect(forward['Shipping Name']).toBeUndefined();
    expect(forward['Lineitem name']).toBeUndefined();
  });

  it('suggests no whole name when a first or last name has a column', () => {
    expect(suggestMappings(['Full Name', 'First Name', 'Email']).forward).toEqual({
      'First Name': 'first_name',
      Email: 'email',
    });
    expect(suggestMappings(['Customer Name', 'Surname', 'Email']).reverse.full_name).toBeUndefined();
  });

  it('leaves a "Name" column whose values are no names (order numbers, emails)', () => {
    const headers = ['Customer Name', 'Email'];
    expect(suggestMappings(headers, { 'Customer Name': ['#1001'], Email: ['a@b.co'] }).forward).toEqual({
      Email: 'email',
    });
    expect(
      suggestMappings(headers, { 'Customer Name': ['ann@x.co'], Email: [] }).reverse.full_name,
    ).toBeUndefined();
    expect(
      suggestMappings(headers, { 'Customer Name': ['Ann Lee', 'Ö. Åberg'], Email: [] }).reverse.full_name,
    ).toBe('Customer Name');
  });
});

describe('two columns for one field: the one with values (decision 0097)', () => {
  const filled = (cols: string[]) =>
    Object.fromEntries(SHOPIFY_ORDERS.map((h) => [h, cols.includes(h) ? ['x'] : []]));

  it('chooses Billing Phone over a Phone column empty in every row, and says so', () => {
    const samples = {
      ...filled(['Email', 'Paid at', 'Total', 'Billing Phone', 'Billing Name']),
      'Billing Name': ['Ann Lee'],
    };
    const r = suggestMappings(SHOPIFY_ORDERS, samples);
    expect(r.reverse.phone).toBe('Billing Phone');
    expect(r.forward.Phone).toBeUndefined();
    expect(r.choices).toEqual([{ field: 'phone', chosen: 'Billing Phone', over: 'Phone' }]);
    expect(choiceMessage(r.choices[0]!)).toBe(
      'Billing Phone chosen over Phone: Phone is empty in every row.',
    );
  });

  it('keeps the header’s order when both or neither have values', () => {
    for (const cols of [['Phone', 'Billing Phone'], []]) {
      const r = suggestMappings(SHOPIFY_ORDERS, filled(cols));
      expect(r.reverse.phone).toBe('Phone');
      expect(r.choices).toEqual([]);
    }
    expect(suggestMappings(SHOPIFY_ORDERS).reverse.phone).toBe('Phone');
  });

  it('does the same for email, zip and names', () => {
    const headers = ['Email', 'Customer Email', 'Zip', 'Billing Zip', 'Billing Name', 'Shipping Name'];
    const r = suggestMappings(headers, {
      Email: [],
      'Customer Email': ['a@b.co'],
      Zip: [],
      'Billing Zip': ['02108'],
      'Billing Name': [],
      'Shipping Name': ['Ann Lee'],
    });
    expect(r.reverse).toEqual({ email: 'Customer Email', zip: 'Billing Zip', full_name: 'Shipping Name' });
    expect(r.choices.map(choiceMessage)).toEqual([
      'Customer Email chosen over Email: Email is empty in every row.',
      'Billing Zip chosen over Zip: Zip is empty in every row.',
      'Shipping Name chosen over Billing Name: Billing Name is empty in every row.',
    ]);
  });

  it('still suggests a lone empty column (the spec’s suggestion), with no choice to tell', () => {
    const r = suggestMappings(['Email', 'Phone'], { Email: ['a@b.co'], Phone: [] });
    expect(r.reverse.phone).toBe('Phone');
    expect(r.choices).toEqual([]);
  });
});
