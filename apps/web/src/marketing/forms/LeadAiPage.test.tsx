import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
const api = vi.hoisted(() => vi.fn());
vi.mock('react-toastify', () => ({ toast }));
vi.mock('../../lib/api.ts', async (orig) => ({ ...(await orig<object>()), api }));
vi.mock('../../lib/session.tsx', () => ({ useSession: () => ({ user: null }) }));
vi.mock('../../lib/track.ts', () => ({ track: vi.fn() }));
vi.mock('../../lib/use-hydrated.ts', () => ({ useHydrated: () => true }));
vi.mock('./Captcha.tsx', () => ({
  Captcha: ({ onToken }: { onToken: (t: string) => void }) => (
    <button type="button" onClick={() => onToken('tok')}>
      captcha
    </button>
  ),
}));

const { LeadAiPage } = await import('./LeadAiPage.tsx');

describe('LeadAiPage (spec §5)', () => {
  it('requires a message, and sends it with the waitlist reason', async () => {
    render(<LeadAiPage />);
    await userEvent.type(screen.getByLabelText(/^Name/), 'Lee Chan');
    await userEvent.type(screen.getByLabelText(/^Email/), 'lee@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'captcha' }));
    await userEvent.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    expect(toast.error).toHaveBeenCalledWith('Please fill in all required fields.');
    expect(api).not.toHaveBeenCalled();
    api.mockResolvedValue({});
    await userEvent.type(screen.getByLabelText(/^Message/), 'We answer leads the next morning.');
    await userEvent.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    await waitFor(() => expect(api).toHaveBeenCalledTimes(1));
    const body = api.mock.calls[0]![1].body;
    expect(body).toMatchObject({ reason: 'lead-ai-waitlist', name: 'Lee Chan', email: 'lee@example.com' });
    expect(body.message).toContain('We answer leads the next morning.');
  });

  it('marks the fields it needs: name, email and message, not the business type', async () => {
    render(<LeadAiPage />);
    const required = (label: RegExp) => screen.getByLabelText(label).getAttribute('aria-required');
    expect([/^Name/, /^Email/, /^Message/].map(required)).toEqual(['true', 'true', 'true']);
    expect(required(/^Business type/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Join the waitlist' }));
    expect(screen.getByLabelText(/^Message/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText(/^Business type/).hasAttribute('aria-invalid')).toBe(false);
  });
});
