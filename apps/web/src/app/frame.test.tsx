import { describe, expect, it, vi, beforeEach } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Link, Outlet, RouterProvider } from 'react-router';
import { toast, ToastContainer } from 'react-toastify';
import { RouteChange } from './RouteChange.tsx';
import { trackToasts } from '../lib/stale-toasts.ts';

const session = vi.hoisted(() => ({
  status: 'loggedOut' as string,
  user: null as null | { firstName: string },
}));
vi.mock('../lib/session.tsx', () => ({ useSession: () => session }));
vi.mock('../lib/public-config.ts', () => ({
  usePublicConfig: () => ({ bookACallUrl: 'https://cal.example' }),
}));

const { AppHeader, AdaptiveLayout } = await import('./layouts/AppLayout.tsx');
const { PublicHeader } = await import('./layouts/PublicLayout.tsx');
const { NotFoundPage } = await import('./NotFoundPage.tsx');

const at = (element: React.ReactNode, path = '/') =>
  render(
    <RouterProvider router={createMemoryRouter([{ path: '*', element }], { initialEntries: [path] })} />,
  );

beforeEach(() => {
  session.status = 'loggedOut';
  session.user = null;
});

describe('headers', () => {
  it('offers "Log in" in the public header to a visitor, and the Dashboard to a signed-in user', () => {
    const { unmount } = at(<PublicHeader />);
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/login');
    unmount();
    session.status = 'loggedIn';
    at(<PublicHeader />);
    expect(screen.queryByRole('link', { name: 'Log in' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');
  });

  it('has a Dashboard link in the app header', () => {
    session.status = 'loggedIn';
    at(<AppHeader />);
    expect(screen.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard');
  });

  it('puts the links of a phone header behind one Menu button, closed by Escape', async () => {
    session.status = 'loggedIn';
    at(<AppHeader />);
    const menu = screen.getByRole('button', { name: 'Menu' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getAllByRole('navigation', { name: 'Account' })).toHaveLength(2);
    await userEvent.keyboard('{Escape}');
    expect(menu.getAttribute('aria-expanded')).toBe('false');
  });
});

describe('the 404 page', () => {
  function notFound() {
    const router = createMemoryRouter(
      [{ element: <AdaptiveLayout />, children: [{ path: '*', element: <NotFoundPage /> }] }],
      { initialEntries: ['/no-such-page'] },
    );
    return render(<RouterProvider router={router} />);
  }

  it('shows a signed-in user the app header and the way back to the dashboard', () => {
    session.status = 'loggedIn';
    session.user = { firstName: 'Ann' };
    notFound();
    expect(screen.getByRole('button', { name: 'Logout' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Book a Call' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/dashboard');
  });

  it('shows a visitor the public header and the way home', () => {
    notFound();
    expect(screen.getAllByRole('link', { name: 'Book a Call' }).length).toBeGreaterThan(0);
    expect(screen.getByRole('link', { name: 'Go back home' }).getAttribute('href')).toBe('/');
  });
});

describe('toasts on navigation', () => {
  it('closes the toasts of the page left behind, and keeps the one raised on the way', async () => {
    let clock = 1_000_000;
    const stop = trackToasts(() => clock);
    vi.spyOn(Date, 'now').mockImplementation(() => clock);
    function Shell() {
      return (
        <>
          <RouteChange />
          <Link to="/dashboard">Go</Link>
          <main id="main">
            <Outlet />
          </main>
        </>
      );
    }
    const router = createMemoryRouter(
      [{ element: <Shell />, children: [{ path: '*', element: <h1>Page</h1> }] }],
      { initialEntries: ['/login'] },
    );
    render(
      <>
        <RouterProvider router={router} />
        <ToastContainer />
      </>,
    );
    act(() => void toast.error('Login failed', { toastId: 'failed' }));
    await screen.findByText('Login failed');
    // The user types again for a few seconds; then the login works.
    clock += 5000;
    act(() => void toast.success('You are now logged in!', { toastId: 'ok' }));
    await act(() => router.navigate('/dashboard'));
    await waitFor(() => expect(toast.isActive('failed')).toBe(false));
    expect(toast.isActive('ok')).toBe(true);
    stop();
    vi.restoreAllMocks();
  });
});
