import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { StepIndicator } from '../../components/StepIndicator.tsx';

const session = vi.hoisted(() => ({ status: 'loading', user: null as null | { firstName: string } }));
vi.mock('../../lib/session.tsx', () => ({ useSession: () => session }));

const { AppHeader, AppLayout } = await import('./AppLayout.tsx');

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

describe('AppLayout and the step pill', () => {
  it("shows a step screen's pill in the header, not over the page (issue 29)", () => {
    session.status = 'loggedIn';
    render(
      <MemoryRouter initialEntries={['/map-columns']}>
        <Routes>
          <Route element={<AppLayout />}>
            <Route
              path="/map-columns"
              element={
                <>
                  <StepIndicator step={2} />
                  <h1>Map Fields</h1>
                </>
              }
            />
          </Route>
        </Routes>
      </MemoryRouter>,
    );
    const pill = screen.getByText(/^Step 2 of 5/);
    expect(screen.getByRole('banner').contains(pill)).toBe(true);
    expect(screen.getByRole('main').contains(pill)).toBe(false);
    expect(screen.getByRole('main').textContent).toBe('Map Fields');
  });
});
