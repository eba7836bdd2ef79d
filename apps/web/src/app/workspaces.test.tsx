import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { createMemoryRouter, Outlet, RouterProvider, useLocation } from 'react-router';
import type { WorkspaceList, WorkspaceRole } from '@backsignal/contracts';

const session = vi.hoisted(() => ({
  status: 'loggedIn',
  user: { firstName: 'Ann', emailVerified: true },
  refresh: async () => null,
  signedIn: () => {},
  signedOut: () => {},
}));
vi.mock('../lib/session.tsx', () => ({ useSession: () => session }));

const { api } = await import('../lib/api.ts');
const { setActiveWorkspaceSlug } = await import('../lib/active-workspace.ts');
const { WorkspaceProvider } = await import('../lib/workspace.tsx');
const { Link } = await import('../lib/ws-router.tsx');
const { ToWorkspace, WorkspaceScope } = await import('./WorkspaceRoutes.tsx');
const { AppHeader } = await import('./layouts/AppLayout.tsx');
const { PixelAccountsPage } = await import('../features/pixel-accounts/PixelAccountsPage.tsx');
const { SourcesPage } = await import('../features/sources/SourcesPage.tsx');
const { WorkspaceSettings } = await import('../features/account/WorkspaceSettings.tsx');
const { RoleGate } = await import('../lib/role-gate.tsx');

interface Call {
  method: string;
  url: string;
  workspace: string | null;
  body: unknown;
}
let calls: Call[] = [];
let list: WorkspaceList;
let onCreate: (body: { name: string }) => { status: number; body: unknown };

const json = (status: number, body: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });

beforeEach(() => {
  calls = [];
  setActiveWorkspaceSlug(null);
  list = {
    current: 'acme-1',
    workspaces: [
      { id: '1', slug: 'acme-1', name: 'Acme', role: 'owner' },
      { id: '2', slug: 'beta-2', name: 'Beta Client', role: 'viewer' },
    ],
  };
  onCreate = () => ({ status: 500, body: {} });
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const headers = init.headers as Record<string, string>;
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
    const method = init.method ?? 'GET';
    calls.push({ method, url, workspace: headers['x-workspace'] ?? null, body });
    if (url === '/api/workspaces' && method === 'GET') return json(200, list);
    if (url === '/api/workspaces' && method === 'POST') {
      const r = onCreate(body);
      return json(r.status, r.body);
    }
    if (url === '/api/workspaces/current') return json(204, null);
    if (url === '/api/workspace' && method === 'DELETE') {
      if (body.confirm !== 'Acme')
        return json(400, {
          code: 'VALIDATION',
          message: 'x',
          fields: { confirm: 'Type the name to confirm.' },
        });
      list = { current: 'beta-2', workspaces: list.workspaces.filter((w) => w.slug !== 'acme-1') };
      return json(200, { message: 'Workspace deleted.' });
    }
    if (url === '/api/workspace/slug') {
      if (body.slug === 'taken')
        return json(409, {
          code: 'CONFLICT',
          message: 'This address is taken. Choose another.',
          fields: { slug: 'This address is taken. Choose another.' },
        });
      list = {
        ...list,
        current: body.slug,
        workspaces: list.workspaces.map((w) => (w.slug === 'acme-1' ? { ...w, slug: body.slug } : w)),
      };
      return json(200, { slug: body.slug, message: 'Workspace address changed.' });
    }
    if (url === '/api/meta/accounts') return json(200, []);
    if (url === '/api/sources') return json(200, { sources: [] });
    return json(200, { probe: headers['x-workspace'] ?? null });
  });
});
afterEach(() => vi.unstubAllGlobals());

/** A screen that asks the API something, and links to another screen by its unprefixed path. */
function Probe() {
  const q = useQuery({ queryKey: ['probe'], queryFn: () => api<{ probe: string }>('/api/probe') });
  const { pathname, search } = useLocation();
  return (
    <div>
      <p>At {pathname + search}</p>
      <p>Answer for {q.data?.probe ?? '…'}</p>
      <Link to="/summary?fileId=f1">Summary link</Link>
    </div>
  );
}

function renderApp(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const screens = [
    { path: 'dashboard', element: <Probe /> },
    { path: 'summary', element: <Probe /> },
    { path: 'pixel-accounts', element: <PixelAccountsPage /> },
    { path: 'sources', element: <SourcesPage /> },
    { path: 'settings', element: <WorkspaceSettings /> },
    {
      path: 'sources/new',
      element: (
        <RoleGate min="admin" what="creating and editing sources">
          <p>The wizard</p>
        </RoleGate>
      ),
    },
  ];
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <AppHeader />
            <Outlet />
          </>
        ),
        children: [
          ...screens.map((s) => ({ path: '/' + s.path, element: <ToWorkspace /> })),
          { path: '/w/:slug', element: <WorkspaceScope />, children: screens },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={client}>
      <WorkspaceProvider>
        <RouterProvider router={router} />
      </WorkspaceProvider>
    </QueryClientProvider>,
  );
  return router;
}

describe('a /w/<slug> deep link', () => {
  it('opens that workspace: the API hears its slug, the server remembers it, links keep the prefix', async () => {
    renderApp('/w/beta-2/dashboard');
    expect(await screen.findByText('Answer for beta-2')).toBeTruthy();
    expect(calls.find((c) => c.url === '/api/probe')?.workspace).toBe('beta-2');
    expect(calls.find((c) => c.url === '/api/workspaces/current')).toMatchObject({
      method: 'PUT',
      body: { slug: 'beta-2' },
    });
    expect(screen.getByRole('link', { name: 'Summary link' }).getAttribute('href')).toBe(
      '/w/beta-2/summary?fileId=f1',
    );
  });

  it('shows the not-found page for a workspace the user is not in, and asks the API nothing of it', async () => {
    renderApp('/w/other-9/dashboard');
    expect(await screen.findByRole('heading', { name: 'Workspace not found.' })).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/probe' || c.url === '/api/workspaces/current')).toBe(false);
  });

  it('sends an unprefixed address to the same screen and query of the current workspace', async () => {
    const router = renderApp('/summary?fileId=f1');
    expect(await screen.findByText('At /w/acme-1/summary?fileId=f1')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/w/acme-1/summary');
    // Already the server's current: nothing to remember.
    expect(calls.some((c) => c.url === '/api/workspaces/current')).toBe(false);
  });
});

describe('the workspace switcher', () => {
  it('shows the name and role, lists the workspaces, closes on Escape with focus back on its button', async () => {
    const user = userEvent.setup();
    renderApp('/w/acme-1/dashboard');
    const button = await screen.findByRole('button', { name: 'Workspace: Acme, Owner' });
    await user.click(button);
    const items = screen.getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['AcmeOwner', 'Beta ClientViewer', '+ New workspace']);
    expect(document.activeElement).toBe(items[0]);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(items[1]);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it("switches to another workspace's dashboard, with no cached answer of the first", async () => {
    const user = userEvent.setup();
    const router = renderApp('/w/acme-1/dashboard');
    expect(await screen.findByText('Answer for acme-1')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: /^Workspace: Acme/ }));
    await user.click(screen.getByRole('menuitem', { name: /Beta Client/ }));
    expect(await screen.findByText('Answer for beta-2')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/w/beta-2/dashboard');
    expect(screen.getByRole('button', { name: 'Workspace: Beta Client, Viewer' })).toBeTruthy();
  });

  it("creates a workspace from its dialog: the API's field error under the name, then the new one opens", async () => {
    const user = userEvent.setup();
    const router = renderApp('/w/acme-1/dashboard');
    await user.click(await screen.findByRole('button', { name: /^Workspace: Acme/ }));
    await user.click(screen.getByRole('menuitem', { name: '+ New workspace' }));
    onCreate = () => ({
      status: 400,
      body: {
        code: 'VALIDATION',
        message: 'Invalid input.',
        fields: { name: 'Workspace name is required.' },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Create workspace' }));
    const field = screen.getByRole('textbox', { name: /Workspace name/ });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Workspace name is required.')).toBeTruthy();

    const created = { id: '3', slug: 'gamma-3', name: 'Gamma', role: 'owner' as WorkspaceRole };
    onCreate = () => {
      list = { current: 'gamma-3', workspaces: [...list.workspaces, created] };
      return { status: 201, body: { workspace: created, message: 'Workspace created.' } };
    };
    await user.type(field, 'Gamma');
    await user.click(screen.getByRole('button', { name: 'Create workspace' }));
    expect(await screen.findByText('Answer for gamma-3')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/w/gamma-3/dashboard');
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ name: 'Gamma' });
  });
});

describe('what a role cannot do is not offered', () => {
  it('an owner manages pixel accounts and sources', async () => {
    renderApp('/w/acme-1/pixel-accounts');
    expect(await screen.findByRole('heading', { name: 'Add a pixel account' })).toBeTruthy();
  });

  it('a viewer sees no way to add a pixel account or a source', async () => {
    renderApp('/w/beta-2/pixel-accounts');
    expect(await screen.findByText('No pixel accounts yet.')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Add a pixel account' })).toBeNull();
  });

  it('a viewer who types the address of a screen beyond their role gets a plain message, an owner the screen', async () => {
    renderApp('/w/beta-2/sources/new');
    expect(await screen.findByRole('heading', { name: 'Not available to your role' })).toBeTruthy();
    expect(
      screen.getByText(/You are a Viewer in this workspace, and creating and editing sources is for Admins/),
    ).toBeTruthy();
    expect(screen.queryByText('The wizard')).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe(
      '/w/beta-2/dashboard',
    );
  });

  it('an owner who opens the same address gets the screen', async () => {
    renderApp('/w/acme-1/sources/new');
    expect(await screen.findByText('The wizard')).toBeTruthy();
  });

  it('a member sees the sources but no New source', async () => {
    list.workspaces[1]!.role = 'member';
    renderApp('/w/beta-2/sources');
    expect(await screen.findByRole('heading', { name: 'Sources' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'New source' })).toBeNull();
  });
});

describe('Settings → Workspace', () => {
  it('offers a viewer neither rename nor delete', async () => {
    renderApp('/w/beta-2/settings');
    expect(await screen.findByText(/your role is/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Rename workspace' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete workspace' })).toBeNull();
    // The address is shown, not offered for change.
    expect(screen.getByText(/\/w\/beta-2\//)).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /Workspace address/ })).toBeNull();
  });

  it("lets the owner change the address: the format checked, the API's refusal under the field, then the app moves", async () => {
    const user = userEvent.setup();
    const router = renderApp('/w/acme-1/settings');
    const field = await screen.findByRole('textbox', { name: /Workspace address/ });
    await user.clear(field);
    await user.type(field, 'Bad slug!');
    await user.click(screen.getByRole('button', { name: 'Change address' }));
    expect(await screen.findByText(/Use 3 to 60 lower-case letters/)).toBeTruthy();
    expect(calls.some((c) => c.url === '/api/workspace/slug')).toBe(false);

    await user.clear(field);
    await user.type(field, 'taken');
    await user.click(screen.getByRole('button', { name: 'Change address' }));
    expect(await screen.findByText('This address is taken. Choose another.')).toBeTruthy();

    await user.clear(field);
    await user.type(field, 'acme-agency');
    await user.click(screen.getByRole('button', { name: 'Change address' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/w/acme-agency/settings'));
    expect(calls.filter((c) => c.url === '/api/workspace/slug').at(-1)).toMatchObject({
      method: 'PATCH',
      workspace: 'acme-1',
      body: { slug: 'acme-agency' },
    });
    expect(await screen.findByText(/\/w\/acme-agency\//)).toBeTruthy();

    // The old address names no workspace now.
    await router.navigate('/w/acme-1/dashboard');
    expect(await screen.findByRole('heading', { name: 'Workspace not found.' })).toBeTruthy();
  });

  it("lets the owner delete it by typing its name, then opens another workspace's dashboard", async () => {
    const user = userEvent.setup();
    const router = renderApp('/w/acme-1/settings');
    expect(await screen.findByRole('button', { name: 'Rename workspace' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Delete workspace' }));
    const dialog = screen.getByRole('dialog');
    const confirm = within(dialog).getByRole('button', { name: 'Delete workspace' });
    expect((confirm as HTMLButtonElement).disabled).toBe(true);
    await user.type(within(dialog).getByRole('textbox', { name: /Workspace name/ }), 'Acme');
    await user.click(confirm);
    expect(await screen.findByText('Answer for beta-2')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/w/beta-2/dashboard');
    expect(calls.find((c) => c.method === 'DELETE')).toMatchObject({
      workspace: 'acme-1',
      body: { confirm: 'Acme' },
    });
  });
});
