import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
const api = vi.hoisted(() => vi.fn());
const session = vi.hoisted(() => ({ user: null as null | { firstName: string } }));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('../../lib/api.ts', async (orig) => ({ ...(await orig<object>()), api }));
vi.mock('../../lib/session.tsx', () => ({ useSession: () => session }));
vi.mock('../../lib/use-hydrated.ts', () => ({ useHydrated: () => true }));
vi.mock('./Captcha.tsx', () => ({
  Captcha: ({ onToken }: { onToken: (t: string) => void }) => (
    <button type="button" onClick={() => onToken('tok')}>
      captcha
    </button>
  ),
}));

const { ContactPage } = await import('./ContactPage.tsx');

/** The fields a visitor sees, and which of them say they are required (aria-required and an asterisk). */
const fields = () =>
  Array.from(document.querySelectorAll<HTMLElement>('input:not([type="hidden"]), select, textarea'))
    .filter((c) => c.id)
    .map((c) => {
      const label = document.querySelector(`label[for="${c.id}"]`)!.textContent;
      const marked = c.parentElement!.querySelector('[aria-hidden]')?.textContent === '*';
      return { label, required: c.getAttribute('aria-required') === 'true', marked };
    });

beforeEach(() => {
  vi.clearAllMocks();
  session.user = null;
});

describe('ContactPage marks the fields it needs (spec §5)', () => {
  it('for a visitor: name, email, reason and message, each with aria-required and an asterisk', () => {
    render(<ContactPage />);
    expect(fields()).toEqual([
      { label: 'Name', required: true, marked: true },
      { label: 'Email', required: true, marked: true },
      { label: 'Reason', required: true, marked: true },
      { label: 'Message', required: true, marked: true },
    ]);
    expect(screen.getByText('required', { exact: false }).textContent).toBe('* required');
  });

  it('for a signed-in user: reason and message only', () => {
    session.user = { firstName: 'Ann' };
    render(<ContactPage />);
    expect(fields()).toEqual([
      { label: 'Reason', required: true, marked: true },
      { label: 'Message', required: true, marked: true },
    ]);
  });

  it('an incomplete send marks the missing fields invalid until they are filled, and sends nothing', async () => {
    render(<ContactPage />);
    await userEvent.type(screen.getByLabelText('Name'), 'Lee Chan');
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(toast.error).toHaveBeenCalledWith('Please fill in all required fields.');
    expect(api).not.toHaveBeenCalled();
    const invalid = () =>
      ['Name', 'Email', 'Reason', 'Message'].filter(
        (l) => screen.getByLabelText(l).getAttribute('aria-invalid') === 'true',
      );
    expect(invalid()).toEqual(['Email', 'Reason', 'Message']);
    await userEvent.type(screen.getByLabelText('Email'), 'lee@example.com');
    await userEvent.selectOptions(screen.getByLabelText('Reason'), 'question');
    expect(invalid()).toEqual(['Message']);
    await userEvent.type(screen.getByLabelText('Message'), 'How do refunds work?');
    expect(invalid()).toEqual([]);
    api.mockResolvedValue({ message: 'Message sent successfully!' });
    await userEvent.click(screen.getByRole('button', { name: 'captcha' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await waitFor(() => expect(api).toHaveBeenCalledTimes(1));
    expect(api.mock.calls[0]![1].body).toMatchObject({
      name: 'Lee Chan',
      email: 'lee@example.com',
      reason: 'question',
      message: 'How do refunds work?',
    });
  });
});
