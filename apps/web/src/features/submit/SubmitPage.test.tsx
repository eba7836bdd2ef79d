import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type * as WorkflowApi from '../workflow/workflow-api.ts';

const api = vi.hoisted(() => ({
  file: vi.fn(),
  prepare: vi.fn(),
  preview: vi.fn(),
  accounts: vi.fn(),
  createAccount: vi.fn(),
  testAccount: vi.fn(),
}));
const rawApi = vi.hoisted(() => vi.fn());
/** What the raw API answers: the account the server suggests, and the delivered-before counts. */
function answerRaw(
  delivered: { alreadyDelivered: number; alreadyDeliveredTest: number },
  suggested: string | null = 'a1',
) {
  rawApi.mockImplementation(async (path: string) =>
    path.endsWith('/suggested-account') ? { accountId: suggested } : delivered,
  );
}
vi.mock('../../lib/api.ts', async (orig) => ({ ...(await orig<object>()), api: rawApi }));
const toast = vi.hoisted(() => ({
  error: vi.fn(),
  success: vi.fn(),
  warn: vi.fn(),
  info: vi.fn(),
  dismiss: vi.fn(),
}));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('../workflow/workflow-api.ts', async (orig) => ({
  ...(await orig<typeof WorkflowApi>()),
  workflowApi: api,
  atLeast: <T,>(_ms: number, p: Promise<T>) => p,
}));

const { SubmitPage } = await import('./SubmitPage.tsx');

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/submit?fileId=f1']}>
        <Routes>
          <Route path="/submit" element={<SubmitPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  api.file.mockResolvedValue({
    id: 'f1',
    fileName: 'a.csv',
    status: 'validated',
    rowCount: 25,
    sizeBytes: 10,
    createdAt: '',
  });
  api.prepare.mockResolvedValue({ totalCount: 25 });
  api.accounts.mockResolvedValue([]);
  answerRaw({ alreadyDelivered: 0, alreadyDeliveredTest: 0 }, null);
});

/** The preview of 25 events, and the API's answer to saving a new account. */
function answerAccountSaved() {
  api.preview.mockResolvedValue({ previewRows: [], totalCount: 25 });
  api.createAccount.mockResolvedValue({
    id: 'a1',
    name: '',
    pixelId: '123456789012',
    accessToken: '••••1234',
  });
}

describe('SubmitPage', () => {
  it("shows 'Failed to load preview' instead of an empty preview when the preview call fails", async () => {
    api.preview.mockRejectedValue(new Error('boom'));
    renderPage();
    expect(await screen.findByText('Failed to load preview')).toBeTruthy();
    expect(screen.queryByText(/first 0 events/)).toBeNull();
    expect(screen.queryByText(/more events/)).toBeNull();
    expect(toast.error).toHaveBeenCalledWith('Failed to load preview');
  });

  it('previews what will be sent as a table: normalised values beside "hashed", times in the file\'s zone', async () => {
    api.preview.mockResolvedValue({
      previewRows: [{ event_name: 'Lead' }],
      totalCount: 25,
      timeZone: 'America/New_York',
      previewDetails: [
        {
          rowNumber: 2,
          normalized: {
            event_name: 'Lead',
            event_time: String(Date.UTC(2026, 10, 21, 10, 0, 0) / 1000),
            action_source: 'physical_store',
            email: 'ann@example.com',
            client_ip_address: '1.2.3.4',
          },
        },
      ],
    });
    renderPage();
    const table = await screen.findByRole('table');
    expect(screen.getByRole('rowheader').textContent).toBe('Row 2');
    expect(table.textContent).toContain('Nov 21, 2026, 5:00 AM EST');
    const email = screen.getByText('ann@example.com').closest('dd')!;
    expect(email.textContent).toBe('ann@example.comhashed');
    expect(screen.getByText('1.2.3.4').closest('dd')!.textContent).toBe('1.2.3.4sent as is');
    expect(screen.queryByText(/"event_name"/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Download Full Preview' })).toBeTruthy();
  });

  it('says how many rows with errors are skipped, with their download', async () => {
    api.prepare.mockResolvedValue({ totalCount: 22, skippedErrorRows: 3, status: 'prepared' });
    api.preview.mockResolvedValue({ previewRows: [], previewDetails: [], timeZone: 'UTC', totalCount: 22 });
    renderPage();
    expect(await screen.findByText('3 rows with errors skipped, not sent.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download skipped rows' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /Send 22 events to Meta/ })).toBeTruthy();
  });

  it('says how many refund rows are skipped (issue 29)', async () => {
    api.prepare.mockResolvedValue({
      totalCount: 20,
      skippedErrorRows: 0,
      skippedRefundRows: 2,
      status: 'prepared',
    });
    api.preview.mockResolvedValue({ previewRows: [], previewDetails: [], timeZone: 'UTC', totalCount: 20 });
    renderPage();
    expect(
      await screen.findByText('2 refund rows (Purchase with a negative value) skipped, not sent.'),
    ).toBeTruthy();
  });

  it('does not show the new-account form while saved accounts are still loading', async () => {
    api.preview.mockResolvedValue({ previewRows: [], totalCount: 25 });
    api.accounts.mockReturnValue(new Promise(() => {}));
    renderPage();
    await screen.findByText('Data Prepared');
    expect(screen.queryByLabelText('Pixel ID')).toBeNull();
    expect(screen.getByText('Loading accounts...')).toBeTruthy();
  });

  it('offers the new-account form once it is known there are no saved accounts', async () => {
    api.preview.mockResolvedValue({ previewRows: [], totalCount: 25 });
    renderPage();
    expect(await screen.findByLabelText('Pixel ID')).toBeTruthy();
  });

  it('preselects only the account the server suggests, none when it suggests none', async () => {
    api.preview.mockResolvedValue({ previewRows: [], totalCount: 25 });
    api.accounts.mockResolvedValue([
      { id: 'a1', name: 'Broken', pixelId: '1', accessToken: '••••1234', status: 'active' },
      { id: 'a2', name: 'Good', pixelId: '2', accessToken: '••••5678', status: 'active' },
    ]);
    answerRaw({ alreadyDelivered: 0, alreadyDeliveredTest: 0 }, 'a2');
    const first = renderPage();
    const select = (await screen.findByLabelText('Send to')) as HTMLSelectElement;
    await waitFor(() => expect(select.value).toBe('a2'));
    first.unmount();

    // Failed on the old code: the first saved account was picked whatever its last test or send.
    rawApi.mockImplementation(async (path: string) =>
      path.endsWith('/suggested-account')
        ? { accountId: null }
        : { alreadyDelivered: 0, alreadyDeliveredTest: 0 },
    );
    renderPage();
    const none = (await screen.findByLabelText('Send to')) as HTMLSelectElement;
    await screen.findByRole('option', { name: 'Choose a pixel account' });
    expect(none.value).toBe('');
    await userEvent.click(screen.getByRole('button', { name: /Send 25 events to Meta/ }));
    expect(toast.error).toHaveBeenCalledWith('Please select or save an account first', {
      toastId: 'no-account',
    });
  });

  it('names an unlabelled account the way the summary does', async () => {
    api.preview.mockResolvedValue({ previewRows: [], totalCount: 25 });
    api.accounts.mockResolvedValue([
      { id: 'a1', name: '', pixelId: '123456789012', accessToken: '••••1234' },
    ]);
    renderPage();
    expect(await screen.findByRole('option', { name: 'Unnamed account · 123456789012' })).toBeTruthy();
  });

  it('takes back the "select or save an account" error once an account is saved', async () => {
    answerAccountSaved();
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: /Send 25 events to Meta/ }));
    expect(toast.error).toHaveBeenCalledWith('Please select or save an account first', {
      toastId: 'no-account',
    });
    await userEvent.type(screen.getByLabelText('Pixel ID'), '123456789012');
    await userEvent.type(screen.getByLabelText('API access token'), 'EAAB-1234');
    await userEvent.click(screen.getByRole('button', { name: 'Save account' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('Account saved'));
    expect(toast.dismiss).toHaveBeenCalledWith('no-account');
  });

  it('saves a new account on Enter, as the Pixel Accounts page does', async () => {
    answerAccountSaved();
    renderPage();
    await userEvent.type(await screen.findByLabelText('Pixel ID'), '123456789012');
    await userEvent.type(screen.getByLabelText('API access token'), 'EAAB-1234{Enter}');
    await waitFor(() => expect(api.createAccount).toHaveBeenCalledTimes(1));
    expect(api.createAccount.mock.calls[0]![0]).toMatchObject({
      pixelId: '123456789012',
      accessToken: 'EAAB-1234',
    });
  });

  it('counts the send button from the skip / send-anyway choice for rows already delivered', async () => {
    api.preview.mockResolvedValue({ previewRows: [], totalCount: 25 });
    api.accounts.mockResolvedValue([
      { id: 'a1', name: 'Main', pixelId: '1', accessToken: '••••1234', status: 'active' },
    ]);
    answerRaw({ alreadyDelivered: 10, alreadyDeliveredTest: 0 });
    renderPage();
    // Failed on the old code: the button said 'Send 25 events' whatever the choice.
    expect(await screen.findByRole('button', { name: 'Send 15 events to Meta' })).toBeTruthy();
    expect(rawApi).toHaveBeenCalledWith('/api/uploads/f1/delivered?accountId=a1');
    await userEvent.click(screen.getByLabelText(/Send them anyway/));
    expect(screen.getByRole('button', { name: 'Send 25 events to Meta' })).toBeTruthy();
    await userEvent.click(screen.getByLabelText(/Skip them/));
    expect(screen.getByRole('button', { name: 'Send 15 events to Meta' })).toBeTruthy();
  });

  it('says nothing new would be sent when the pixel has every event, and offers to go back or send anyway', async () => {
    api.preview.mockResolvedValue({ previewRows: [], totalCount: 25 });
    api.accounts.mockResolvedValue([
      { id: 'a1', name: 'Main', pixelId: '1', accessToken: '••••1234', status: 'active' },
    ]);
    answerRaw({ alreadyDelivered: 25, alreadyDeliveredTest: 0 });
    renderPage();
    // Failed on the old code: the only way on was a 'Send 0 events to Meta' button.
    expect(
      await screen.findByText(
        'All 25 events were already delivered to this pixel. Nothing new would be sent.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Send \d+ events? to Meta$/ })).toBeNull();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/dashboard');
    await userEvent.click(screen.getByRole('button', { name: 'Send them again anyway' }));
    expect(screen.getByRole('button', { name: 'Send 25 events to Meta' })).toBeTruthy();
    expect((screen.getByLabelText(/Send them anyway/) as HTMLInputElement).checked).toBe(true);
  });

  it('tests the connection of an account saved from the inline form', async () => {
    answerAccountSaved();
    api.accounts
      .mockResolvedValueOnce([])
      .mockResolvedValue([
        { id: 'a1', name: '', pixelId: '123456789012', accessToken: '••••1234', status: 'active' },
      ]);
    answerRaw({ alreadyDelivered: 0, alreadyDeliveredTest: 0 });
    api.testAccount.mockResolvedValue({ ok: true, message: 'Connected to pixel Main store.' });
    renderPage();
    await userEvent.type(await screen.findByLabelText('Pixel ID'), '123456789012');
    await userEvent.type(screen.getByLabelText('API access token'), 'EAAB-1234');
    await userEvent.click(screen.getByRole('button', { name: 'Save and test connection' }));
    expect(await screen.findByText('Connected to pixel Main store.')).toBeTruthy();
    expect(api.testAccount).toHaveBeenCalledWith('a1');
    // And again for the chosen account.
    api.testAccount.mockResolvedValue({ ok: false, message: 'Meta refused the token.' });
    await userEvent.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Meta refused the token.')).toBeTruthy();
  });

  it("tells the move from validated to prepared: 'File marked as prepared' (spec §8)", async () => {
    api.preview.mockResolvedValue({ previewRows: [], totalCount: 25 });
    renderPage();
    await screen.findByRole('button', { name: /Send 25 events to Meta/ });
    expect(toast.success).toHaveBeenCalledWith('File marked as prepared');
  });
});
