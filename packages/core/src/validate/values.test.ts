import { describe, expect, it } from 'vitest';
import { identifierProblem } from './identifiers.ts';
import { canonicalActionSource, canonicalCurrency, FBC, FBP, isIpAddress, LEAD_ID } from './values.ts';

describe('canonicalCurrency', () => {
  // A change of case only is the same code: not a correction (issue 29); a symbol read as a code is one.
  it.each([
    ['USD', 'USD', false],
    ['usd', 'USD', false],
    [' eur ', 'EUR', false],
    ['$', 'USD', true],
    ['€', 'EUR', true],
    ['£', 'GBP', true],
    ['C$', 'CAD', true],
    ['A$', 'AUD', true],
    ['¥', 'JPY', true],
    ['₹', 'INR', true],
    ['JPY', 'JPY', false],
    ['chf', 'CHF', false],
  ])('%j → %s', (raw, code, noted) => {
    const c = canonicalCurrency(raw);
    expect(c?.value).toBe(code);
    expect(Boolean(c?.note)).toBe(noted);
  });
  it.each(['', 'US', 'USDD', 'dollars', 'XYZ', '12', 'constructor', '__proto__'])(
    '%j is not a currency',
    (raw) => expect(canonicalCurrency(raw)).toBeNull(),
  );
});

describe('isIpAddress', () => {
  it.each([
    '203.0.113.7',
    '0.0.0.0',
    '255.255.255.255',
    '2001:db8::1',
    '::1',
    '::',
    '2001:0db8:0000:0000:0000:ff00:0042:8329',
    'fe80::1%eth0',
    '::ffff:192.0.2.1',
    '2001:db8:85a3::8a2e:370:7334',
  ])('%j is an IP address', (v) => expect(isIpAddress(v)).toBe(true));
  it.each([
    '256.1.1.1',
    '1.2.3',
    '1.2.3.4.5',
    '01.2.3.4',
    '1.2.3.4 ',
    'localhost',
    '2001:db8::1::2',
    '2001:db8:::1',
    '12345::1',
    'g::1',
    '1:2:3:4:5:6:7:8:9',
    '::ffff:999.0.2.1',
    '',
    ':',
  ])('%j is not', (v) => expect(isIpAddress(v)).toBe(false));
});

describe('fbc, fbp and lead_id shapes', () => {
  it.each([
    ['fb.1.1554763741205.AbCdEfGhIjKlMnOpQrStUvWxYz1234567890', true],
    ['fb.2.1554763741.IwAR2x', true],
    ['fb.1.155476374.abc', false],
    ['fb.1.1554763741205.', false],
    ['fbclid=IwAR2x', false],
    ['fb.a.1554763741205.x', false],
  ])('fbc %j → %s', (v, ok) => expect(FBC.test(v)).toBe(ok));
  it.each([
    ['fb.1.1596403881668.1116446470', true],
    ['fb.0.1596403881668.42', true],
    ['fb.1.1596403881668.abc', false],
    ['fb.1.1596403881668', false],
    ['_fbp=fb.1.1596403881668.1', false],
  ])('fbp %j → %s', (v, ok) => expect(FBP.test(v)).toBe(ok));
  it.each([
    ['123456789012345', true],
    ['1234567890123456', true],
    ['12345678901234567', true],
    ['12345678901234', false],
    ['123456789012345678', false],
    ['12345678901234a', false],
    ['1.23456789012345E+14', false],
  ])('lead_id %j → %s', (v, ok) => expect(LEAD_ID.test(v)).toBe(ok));
});

describe('identifierProblem: weak-only combinations (meta-capi.md §1.6)', () => {
  it.each([
    [
      { city: 'paris', country: 'fr', state: 'idf', zip: '75018', gender: 'f', client_user_agent: 'UA' },
      'insufficient',
    ],
    [{ city: 'paris', country: 'fr' }, 'insufficient'],
    [{ zip: '94025' }, 'insufficient'],
    [{ db: '19900131', client_user_agent: 'UA' }, 'insufficient'],
    [{ db: '19900131' }, 'insufficient'],
    [{ first_name: 'ann', gender: 'f' }, 'insufficient'],
    [{ last_name: 'lee', gender: 'f' }, 'insufficient'],
    [{}, 'none'],
    [{ first_name: 'ann', last_name: 'lee', zip: '94025' }, null],
    [{ first_name: 'ann', db: '19900131' }, null],
    [{ last_name: 'lee', city: 'paris' }, null],
    [{ email: 'a@b.co' }, null],
    [{ phone: '16505551212' }, null],
    [{ external_id: 'x' }, null],
    [{ lead_id: '123456789012345' }, null],
    [{ fbc: 'fb.1.1.x', gender: 'f' }, null],
    [{ client_ip_address: '203.0.113.7' }, null],
  ])('%j → %s', (row, expected) => {
    const p = identifierProblem(row);
    if (expected === null) expect(p).toBeNull();
    else if (expected === 'none') expect(p).toMatch(/No usable customer information/);
    else expect(p).toMatch(/Meta rejects events with this little customer information/);
  });
});

describe('canonicalActionSource', () => {
  it.each([
    ['website', 'website', undefined],
    ['Website', 'website', 'action_source "Website" → "website"'],
    ['Web Site', 'website', 'action_source "Web Site" → "website"'],
    ['web-site', 'website', 'action_source "web-site" → "website"'],
    ['web_site', 'website', 'action_source "web_site" → "website"'],
    ['E-mail', 'email', 'action_source "E-mail" → "email"'],
    ['e mail', 'email', 'action_source "e mail" → "email"'],
    ['Physical Store', 'physical_store', 'action_source "Physical Store" → "physical_store"'],
    ['In-Store', 'physical_store', 'action_source "In-Store" → "physical_store"'],
    ['phone call', 'phone_call', 'action_source "phone call" → "phone_call"'],
    ['CRM', 'system_generated', 'action_source "CRM" → "system_generated"'],
  ])('%j → %s', (raw, value, note) =>
    expect(canonicalActionSource(raw)).toEqual(note ? { value, note } : { value }),
  );

  it.each(['carrier pigeon', 'fax', '', 'Constructor', '__proto__', 'toString'])(
    '%j is not one of Meta’s values',
    (raw) => expect(canonicalActionSource(raw)).toBeNull(),
  );
});
