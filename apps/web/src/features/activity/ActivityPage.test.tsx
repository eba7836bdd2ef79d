import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { ActivityEntry, WorkspaceRole } from '@backsignal/contracts';
import type * as ActivityApi from './activity-api.ts';

const activity = vi.hoisted(() => ({
  workspace: vi.fn(),
  page: vi.fn(),
  people: vi.fn(),
  downloadCsv: vi.fn(),
}));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('./activity-api.ts', async (orig) => ({
  ...(await orig<typeof ActivityApi>()),
  activityApi: activity,
}));

const { ActivityPage, ActivityLink } = await import('./ActivityPage.tsx');
const { activityQuery, detailsText, NO_FILTERS } = await import('./activity-api.ts');

const entry = (id: string, over: Partial<ActivityEntry> = {}): ActivityEntry => ({
  id,
  at: '2026-11-28T10:00:00.000Z',
  actorUserId: 'u1',
  actorLabel: 'Ada Admin <ada@example.com>',
  kind: 'file.uploaded',
  subject: 'june.csv',
  details: { rows: 2 },
  ip: '10.0.0.1',
  ...over,
});

const as = (role: WorkspaceRole) =>
  activity.workspace.mockResolvedValue({ id: 'w', slug: 'w', name: 'Acme', role });

function renderPage(ui = <ActivityPage />) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  activity.people.mockResolvedValue({ people: [{ userId: 'u1', label: 'Ada Admin <ada@example.com>' }] });
});

describe('ActivityPage', () => {
  it('lists entries, filters by person, kind and date, and reads older pages', async () => {
    as('admin');
    activity.page.mockImplementation(async (_f: unknown, before: string | null) =>
      before
        ? {
            entries: [
              entry('1', {
                kind: 'source.run_started',
                actorUserId: null,
                actorLabel: 'schedule',
                subject: 'Leads',
                details: {},
                ip: null,
              }),
            ],
            next: null,
          }
        : {
            entries: [
              entry('2', {
                kind: 'send.finished',
                details: { pixelId: '123', status: 'completed', sent: 40, failed: 2 },
              }),
            ],
            next: 'c1',
          },
    );
    renderPage();
    expect(await screen.findByText('pixel 123 · completed · 40 sent · 2 failed')).toBeTruthy();
    const table = () => within(screen.getByRole('table'));
    expect(table().getByText('Send finished')).toBeTruthy();
    expect(table().getByText('Ada Admin <ada@example.com>')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Show older' }));
    expect(await screen.findByText('Schedule')).toBeTruthy();
    expect(table().getByText('Scheduled source run')).toBeTruthy();
    expect(activity.page).toHaveBeenLastCalledWith(NO_FILTERS, 'c1');

    await userEvent.selectOptions(await screen.findByLabelText('Person'), 'u1');
    await userEvent.selectOptions(screen.getByLabelText('What'), 'pixel.removed');
    await waitFor(() =>
      expect(activity.page).toHaveBeenLastCalledWith(
        { ...NO_FILTERS, person: 'u1', kind: 'pixel.removed' },
        null,
      ),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    expect(activity.downloadCsv).toHaveBeenCalledWith({ ...NO_FILTERS, person: 'u1', kind: 'pixel.removed' });
  });

  it('tells a member or viewer the log is for admins and owners, and asks nothing of it', async () => {
    as('member');
    renderPage();
    expect(
      await screen.findByText('Only admins and owners of this workspace can see its activity.'),
    ).toBeTruthy();
    expect(activity.page).not.toHaveBeenCalled();
    expect(activity.people).not.toHaveBeenCalled();
  });

  it('the Settings link shows for owners and admins only', async () => {
    as('owner');
    const { unmount } = renderPage(<ActivityLink />);
    expect(await screen.findByRole('link', { name: 'Workspace activity' })).toBeTruthy();
    unmount();
    as('viewer');
    renderPage(<ActivityLink />);
    await waitFor(() => expect(activity.workspace).toHaveBeenCalledTimes(2));
    expect(screen.queryByRole('link', { name: 'Workspace activity' })).toBeNull();
  });
});

describe('activity-api helpers', () => {
  it('leaves empty filters out of the query and words details', () => {
    expect(activityQuery(NO_FILTERS)).toBe('');
    expect(
      activityQuery(
        { ...NO_FILTERS, kind: 'send.started', from: '2026-11-01' },
        '2026-11-28T10:00:00.000Z,5',
      ),
    ).toBe('?kind=send.started&from=2026-11-01&before=2026-11-28T10%3A00%3A00.000Z%2C5');
    expect(detailsText({ ok: false, pixelId: '9' })).toBe('connection failed · pixel 9');
    expect(detailsText({ filesDeleted: 3 })).toBe('3 files deleted');
    expect(
      detailsText({ status: 'nothing_new', rows: 4, rowsSkipped: 1, sent: 0, failed: 0, source: 'my_sheet' }),
    ).toBe('nothing new · 4 rows · 1 rows skipped · 0 sent · 0 failed · source my_sheet');
    expect(detailsText({ reason: 'too many rows have errors' })).toBe('too many rows have errors');
  });
});
