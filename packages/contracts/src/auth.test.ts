import { describe, expect, it } from 'vitest';
import { LoginRequest, passwordProblem, SignupRequest } from './auth.ts';

describe('passwordProblem (spec §5, in order)', () => {
  it.each([
    ['Ab1!', 'Password must be at least 8 characters long.'],
    ['Abcdefgh!', 'Password must include at least one number.'],
    ['abcdefg1!', 'Password must include at least one uppercase letter.'],
    ['Abcdefg12', 'Password must include at least one special character.'],
    ['short', 'Password must be at least 8 characters long.'],
  ])('%s → %s', (pw, msg) => expect(passwordProblem(pw)).toBe(msg));

  it('accepts a strong password and a 64-character passphrase', () => {
    expect(passwordProblem('Correct-Horse-9!')).toBeNull();
    expect(passwordProblem('A1!' + 'x'.repeat(61))).toBeNull();
  });

  it('accepts every listed special character', () => {
    for (const c of '!@#$%^&*(),.?":{}|<>') expect(passwordProblem(`Abcdefg1${c}`)).toBeNull();
  });
});

describe('auth payloads', () => {
  it('normalises the email and defaults optional fields', () => {
    const r = SignupRequest.parse({
      email: '  Ann@Example.COM ',
      firstName: 'Ann',
      password: 'Correct-Horse-9!',
    });
    expect(r).toMatchObject({ email: 'ann@example.com', lastName: '', company: '', role: '' });
  });

  it('reports the password rule as the message', () => {
    const r = SignupRequest.safeParse({ email: 'a@b.co', firstName: 'A', password: 'abc' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.message).toBe('Password must be at least 8 characters long.');
  });

  it('rejects a malformed email', () => {
    expect(LoginRequest.safeParse({ email: 'nope', password: 'x' }).success).toBe(false);
  });
});
