import { describe, expect, it } from 'vitest';
import { DEFAULT_FILE_SETTINGS } from '../settings.ts';
import { describeDrops, dropReason } from './drop-reason.ts';
import { createRowValidator } from './row-validator.ts';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0) / 1000;
const HEADERS = ['Email', 'Phone', 'Event', 'When', 'Source', 'Ip', 'Fbc', 'Zip'];
const validate = createRowValidator({
  headers: HEADERS,
  mappings: {
    Email: 'email',
    Phone: 'phone',
    Event: 'event_name',
    When: 'event_time',
    Source: 'action_source',
    Ip: 'client_ip_address',
    Fbc: 'fbc',
    Zip: 'zip',
  },
  hardcoded: {},
  settings: DEFAULT_FILE_SETTINGS,
  now: NOW,
});
const row = (o: Partial<Record<string, string>>) => {
  const base: Record<string, string> = {
    Email: 'ann@example.com',
    Phone: '+16505551212',
    Event: 'Lead',
    When: '2026-11-21T10:00:00Z',
    Source: 'system_generated',
    Ip: '',
    Fbc: '',
    Zip: '',
  };
  return HEADERS.map((h) => o[h] ?? base[h]!);
};

describe('dropped values', () => {
  it('an email with accented letters is a drop with its own reason, never a correction', () => {
    const r = validate(row({ Email: 'josé.garcía@example.com' }), 2);
    expect(r.corrections.filter((c) => c.field === 'email')).toEqual([]);
    expect(r.errors).toEqual([]);
    expect(r.drops).toEqual([
      {
        field: 'email',
        reason: 'accented_letters',
        message: 'Dropped email "josé.garcía@example.com": it has accented letters Meta does not accept.',
        original: 'josé.garcía@example.com',
      },
    ]);
    expect(r.effectiveRow.email).toBeUndefined();
  });

  it('tells each reason apart', () => {
    const r = validate(
      row({
        Phone: '6.50555E+09',
        Ip: 'localhost',
        Fbc: 'abc',
        Zip: 'n/a',
        Email: 'E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855',
      }),
      3,
    );
    expect(Object.fromEntries(r.drops.map((d) => [d.field, d.reason]))).toEqual({
      email: 'empty_hash',
      phone: 'scientific_notation',
      client_ip_address: 'invalid',
      fbc: 'wrong_format',
      zip: 'placeholder',
    });
    expect(r.corrections.map((c) => c.corrected)).not.toContain('');
  });

  it('a harmless rewrite stays a correction, with no drop', () => {
    const r = validate(row({ Email: ' Ann@Example.com' }), 2);
    expect(r.drops).toEqual([]);
  });

  it('only emails are refused for accented letters', () => {
    expect(dropReason('email', 'zoë@example.com', 'is not a valid email address')).toBe('accented_letters');
    expect(dropReason('email', 'zoe@@example.com', 'is not a valid email address')).toBe('invalid');
    expect(dropReason('city', 'Zürich', 'has no letters')).toBe('invalid');
  });

  it('describes a count per field and reason in a marketer’s words', () => {
    expect(describeDrops('email', 'accented_letters', 139)).toBe(
      "139 emails can't be used: accented letters Meta does not accept",
    );
    expect(describeDrops('phone', 'invalid', 1)).toBe(
      "1 phone number can't be used: not a valid phone number",
    );
    expect(describeDrops('zip', 'placeholder', 2400)).toBe(
      "2,400 postal codes can't be used: placeholders, not real values",
    );
  });
});
