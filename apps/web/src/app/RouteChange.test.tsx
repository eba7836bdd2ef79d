import { useEffect, useRef, useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter, Outlet, Route, Routes } from 'react-router';
import { RouteChange } from './RouteChange.tsx';

function Layout() {
  return (
    <>
      <RouteChange />
      <nav>
        <Link to="/a">Page A</Link> <Link to="/form">Form</Link> <Link to="/late">Late</Link>
      </nav>
      <main id="main">
        <Outlet />
      </main>
    </>
  );
}

function FormPage() {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <>
      <h1>Form</h1>
      <input ref={ref} aria-label="Email" />
    </>
  );
}

function LatePage() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setReady(true), 50);
    return () => clearTimeout(t);
  }, []);
  return ready ? <h1>Late</h1> : <p>Loading...</p>;
}

function renderApp() {
  return render(
    <MemoryRouter initialEntries={['/']}>
      <Routes>
        <Route element={<Layout />}>
          <Route path="/" element={<h1>Home</h1>} />
          <Route path="/a" element={<h1>Page A</h1>} />
          <Route path="/form" element={<FormPage />} />
          <Route path="/late" element={<LatePage />} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}

describe('RouteChange', () => {
  window.scrollTo = vi.fn();

  it('leaves focus alone on the first page load', () => {
    renderApp();
    expect(document.activeElement).toBe(document.body);
    expect(screen.getByRole('heading', { name: 'Home' }).getAttribute('tabindex')).toBeNull();
  });

  it("moves focus from the followed link to the new page's heading, and scrolls to the top", async () => {
    renderApp();
    await userEvent.click(screen.getByRole('link', { name: 'Page A' }));
    const heading = screen.getByRole('heading', { name: 'Page A' });
    expect(document.activeElement).toBe(heading);
    expect(heading.getAttribute('tabindex')).toBe('-1');
    expect(window.scrollTo).toHaveBeenLastCalledWith(0, 0);
  });

  it('keeps the focus a page gives its own field', async () => {
    renderApp();
    await userEvent.click(screen.getByRole('link', { name: 'Form' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
  });

  it('waits for a heading that comes later', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderApp();
      await userEvent.click(screen.getByRole('link', { name: 'Late' }));
      expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Late' }));
      await act(() => vi.advanceTimersByTimeAsync(60));
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Late' }));
    } finally {
      vi.useRealTimers();
    }
  });

  it('stops waiting once the user moves focus', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderApp();
      await userEvent.click(screen.getByRole('link', { name: 'Late' }));
      screen.getByRole('link', { name: 'Page A' }).focus();
      await act(() => vi.advanceTimersByTimeAsync(60));
      expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Page A' }));
    } finally {
      vi.useRealTimers();
    }
  });
});
