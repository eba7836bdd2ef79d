import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidEmail, normalizeEmail, readEmail } from './email.ts';
import { digitsOnly, nanp, normalizePhone, plainPhoneDigits } from './phone.ts';
import { isPlaceholder } from './placeholder.ts';
import { normalizeZip } from './places.ts';
import { clean, HAS_ZERO_WIDTH, ok, trimmed, unusable, type Normalized } from './result.ts';

// The usual values' fast paths skip clean() (a regex for zero-width characters) and a regex each. These
// properties are what makes them give the general path's answer; a wrong fast path fails them.

// Characters that matter to clean(), trim and the shapes: zero-width ones (U+FEFF is also whitespace to trim),
// ASCII and other whitespace, digits, the phone punctuation, letters, '@', and a wide digit.
const unit = fc.constantFrom(
  ...'0123456789 ().+-@aZx.'.split(''),
  '\t',
  '\u00a0',
  '\u3000',
  '\u200b',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\uff11',
  '–',
);
const texts = fc.oneof(
  fc.string({ unit, maxLength: 16 }),
  fc.string(),
  fc.emailAddress(),
  fc.emailAddress().map((e) => ` \ufeff${e.toUpperCase()}\u200b `),
  fc.stringMatching(/^\s*[+(]?\d[\d ().-]{5,14}\s*$/),
  fc.stringMatching(/^[\s\u200b\ufeff]*\d{5}(?:[-–]?\d{4})?[\s\u200b\ufeff]*$/),
);
const runs = { numRuns: 1_000 };

describe('fast paths of the normalisers', { timeout: 60_000 }, () => {
  it('a value without a zero-width character is cleaned by trimming', () => {
    fc.assert(
      fc.property(texts, (s) => {
        if (!HAS_ZERO_WIDTH.test(s)) expect(clean(s)).toBe(trimmed(s));
      }),
      runs,
    );
  });

  it('email: a trimmed value that is a valid address once lowercased is what clean() gives', () => {
    fc.assert(
      fc.property(texts, (s) => {
        const v = trimmed(s).toLowerCase();
        if (isValidEmail(v)) expect(clean(s).toLowerCase()).toBe(v);
        // The general path, on the same value: its first steps, as they were before the fast path.
        const c = clean(s).toLowerCase();
        const r = normalizeEmail(s);
        // Zero-width characters that trim() leaves are removed and reported (issue 20).
        if (isValidEmail(c))
          expect(r).toEqual(
            isValidEmail(v)
              ? { ok: true, value: c }
              : { ok: true, value: c, note: 'Email: removed invisible (zero-width) characters' },
          );
        else if (!c) expect(r).toEqual({ ok: false, reason: 'is empty' });
      }),
      runs,
    );
  });

  it('email: an address that needs nothing is what the general path gives', () => {
    // Valid addresses as they come, in upper or mixed case, padded, or with a character changed.
    const mixedCase = fc
      .tuple(fc.emailAddress(), fc.array(fc.boolean(), { maxLength: 40 }))
      .map(([e, up]) => [...e].map((ch, i) => (up[i] ? ch.toUpperCase() : ch)).join(''));
    const near = fc
      .tuple(fc.emailAddress(), fc.nat(), fc.constantFrom('A', 'Z', 'É', 'ß', '\u0130', '.', '@', ' ', ''))
      .map(([e, at, ch]) => `${e.slice(0, at % (e.length + 1))}${ch}${e.slice((at % (e.length + 1)) + 1)}`);
    fc.assert(
      fc.property(fc.oneof(fc.emailAddress(), mixedCase, near, texts), (s) => {
        expect(normalizeEmail(s)).toEqual(readEmail(s));
        if (isValidEmail(s)) expect(s.toLowerCase()).toBe(s);
      }),
      runs,
    );
  });

  it('phone: an ASCII plain phone is what clean() gives, and plain', () => {
    fc.assert(
      fc.property(texts, (s) => {
        const t = trimmed(s);
        if (plainPhoneDigits(t) !== null) {
          expect(clean(s)).toBe(t);
          expect(/^[\d\s().+-]+$/.test(t)).toBe(true);
        }
      }),
      runs,
    );
    // The answer does not depend on whitespace around the value, which only the fast path trims itself.
    fc.assert(
      fc.property(texts, (s) => {
        expect(normalizePhone(` ${s}\u3000`, 'US')).toEqual(normalizePhone(s, 'US'));
      }),
      { numRuns: 700 },
    );
  });

  it("phone: a plain phone's digits are digitsOnly's, and anything else is not plain", () => {
    const ASCII_PLAIN = /^[\d ().+-]+$/;
    fc.assert(
      fc.property(texts, (s) => {
        expect(plainPhoneDigits(s)).toBe(ASCII_PLAIN.test(s) ? digitsOnly(s) : null);
      }),
      runs,
    );
  });

  it('phone: a plain phone gives what the general path gives', () => {
    // A zero-width character in front makes the same phone take the general path (clean() drops it), where
    // its digits are read by digitsOnly after the ".0" and "(0)" are removed.
    const phones = fc.oneof(
      texts,
      fc.stringMatching(/^\+?\d{6,12}(\.0)?$/),
      fc.stringMatching(/^(\+44|0) ?\(0\) ?\d{3,4} ?\d{6}$/),
    );
    fc.assert(
      fc.property(phones, fc.constantFrom('US', 'GB'), (s, country) => {
        expect(normalizePhone(s, country)).toEqual(normalizePhone(`\u200b${s}`, country));
      }),
      runs,
    );
  });

  it('phone: nanp is the North American regex on digits', () => {
    const NANP = /^1[2-9]\d{2}[2-9]\d{6}$/;
    const digits = fc.oneof(fc.stringMatching(/^\d{0,13}$/), fc.stringMatching(/^1?[0-9]\d{2}[0-9]\d{6}$/));
    fc.assert(
      fc.property(digits, fc.nat(2), (d, from) => {
        expect(nanp(d, from)).toBe(NANP.test(`1${d.slice(from)}`));
      }),
      runs,
    );
  });

  it('zip: the same answer as before the fast path', () => {
    // normalizeZip as it was (599d8a5), the general path for every value, with any dash read as "-" since.
    const US_ZIP = /^(\d{5})(?:\s*[\p{Pd}\u2212]\s*\d{4}|\s*\d{4})?$/u;
    const before = (raw: string): Normalized => {
      let v = clean(raw).toLowerCase();
      if (!v) return unusable('is empty');
      if (/^\d{5}$/.test(v)) return ok(v);
      let us = US_ZIP.exec(v);
      if (us)
        return ok(us[1]!, v.length > 5 ? `Zip "${raw.trim()}" shortened to the 5-digit US zip` : undefined);
      if (isPlaceholder(v)) return unusable('is a placeholder, not a postal code');
      v = v.replace(/^(\d+)\.0$/, '$1');
      us = US_ZIP.exec(v);
      if (us)
        return ok(us[1]!, v.length > 5 ? `Zip "${raw.trim()}" shortened to the 5-digit US zip` : undefined);
      v = v.replace(/[\s\p{Pd}\u2212]/gu, '');
      if (v.length < 2 || !/^[\p{L}\p{N}]+$/u.test(v)) return unusable('is not a postal code');
      return isPlaceholder(v) ? unusable('is a placeholder, not a postal code') : ok(v);
    };
    fc.assert(
      fc.property(texts, (s) => {
        expect(normalizeZip(s)).toEqual(before(s));
      }),
      runs,
    );
    for (const s of [
      '94035',
      '94035-1234',
      '9403a',
      '94035-123x',
      '94035 1234',
      '94035–1234',
      '94035\u22121234',
    ])
      expect(normalizeZip(s)).toEqual(before(s));
  });
});
