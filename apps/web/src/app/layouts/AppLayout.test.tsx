import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';

const session = vi.hoisted(() => ({ status: 'loading', user: null as null | { firstName: string } }));
vi.mock('../../lib/session.tsx', () => ({ useSession: () => session }));

const { AppHeader } = await import('./AppLayout.tsx');

const header = () =>
  render(
    <MemoryRouter>
      <AppHeader />
    </MemoryRouter>,
  );

describe('AppHeader', () => {
  it('shows no Account or Logout while the session is still loading', () => {
    header();
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Account' })).toBeNull();
  });

  it('shows them for a logged-in user', () => {
    session.status = 'loggedIn';
    session.user = { firstName: 'Ann' };
    header();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Account' })).toBeTruthy();
  });
});
