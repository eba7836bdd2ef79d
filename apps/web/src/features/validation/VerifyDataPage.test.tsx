import { describe, expect, it, vi, beforeEach } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { ValidationResponse, ValidationRow } from '@backsignal/contracts';
import { ApiError } from '../../lib/api.ts';
import type * as WorkflowApi from '../workflow/workflow-api.ts';

const api = vi.hoisted(() => ({
  file: vi.fn(),
  validate: vi.fn(),
  uploadFixed: vi.fn(),
  setStatus: vi.fn(),
  refundRows: vi.fn(),
}));
const toast = vi.hoisted(() => ({ error: vi.fn(), success: vi.fn(), warn: vi.fn(), info: vi.fn() }));
vi.mock('react-toastify', () => ({ toast }));
vi.mock('../workflow/workflow-api.ts', async (orig) => ({
  ...(await orig<typeof WorkflowApi>()),
  workflowApi: api,
  atLeast: <T,>(_ms: number, p: Promise<T>) => p,
}));

const { VerifyDataPage } = await import('./VerifyDataPage.tsx');

const row = (n: number, over: Partial<ValidationRow> = {}): ValidationRow => ({
  rowNumber: n,
  hasErrors: false,
  hasCorrections: false,
  errors: [],
  corrections: [],
  hasDrops: false,
  drops: [],
  warnings: [],
  effectiveRow: { email: 'a@b.co' },
  ...over,
});
const result = (over: Partial<ValidationResponse> = {}): ValidationResponse => ({
  rows: [],
  rowsChecked: 3,
  rowsWithErrors: 0,
  rowsCorrected: 0,
  rowsWithWarnings: 0,
  rowsWithDrops: 0,
  droppedValues: [],
  timeZone: 'America/New_York',
  skipErrorRows: false,
  refundRows: 0,
  refundChoice: 'ask',
  fileIssues: [],
  fileNotices: [],
  quality: null,
  ...over,
});

const text = (el: HTMLElement) => el.textContent?.replace(/\s+/g, ' ').trim();

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/verify-data?fileId=f1']}>
      <Routes>
        <Route path="/verify-data" element={<VerifyDataPage />} />
        <Route path="/dashboard" element={<p>dashboard page</p>} />
        <Route path="/map-columns" element={<p>map columns page</p>} />
        <Route path="/submit" element={<p>submit page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  vi.clearAllMocks();
  api.file.mockResolvedValue({
    id: 'f1',
    fileName: 'a.csv',
    status: 'mapped',
    rowCount: 3,
    sizeBytes: 10,
    createdAt: '',
  });
});

describe('VerifyDataPage', () => {
  it('shows the validation job progress as it runs, then the result', async () => {
    let finish!: (r: ValidationResponse) => void;
    api.validate.mockImplementation(
      (_id: string, onProgress: (p: object) => void) =>
        new Promise((resolve) => {
          onProgress({ kind: 'validate', stage: 'reading', rowsDone: 150_000, rowsTotal: 300_000 });
          finish = resolve;
        }),
    );
    renderPage();
    const bar = await screen.findByRole('progressbar', { name: 'Validation progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByText('Validating… 150,000 of 300,000 rows')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue to Submission' }).hasAttribute('disabled')).toBe(
      true,
    );
    finish(result({ rowsChecked: 300_000 }));
    expect(await screen.findByText('300,000')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('labels errors, corrections and warning-only rows each for what they are', async () => {
    api.validate.mockResolvedValue(
      result({
        rowsWithErrors: 1,
        rows: [
          row(2, { hasErrors: true, errors: [{ field: 'email', message: 'bad' }] }),
          row(3, {
            hasCorrections: true,
            corrections: [{ field: 'currency', message: 'upper-cased', original: 'usd', corrected: 'USD' }],
          }),
          row(4, { warnings: [{ field: 'event_time', message: 'Send it today.' }] }),
        ],
      }),
    );
    renderPage();
    await screen.findByRole('table');
    const heads = screen.getAllByRole('rowheader').map(text);
    expect(heads).toEqual(['Row 2 has errors', 'Row 3 corrected', 'Row 4 warning']);
  });

  it('shows dropped values as a warning apart from corrections, and never calls such a file clean', async () => {
    api.validate.mockResolvedValue(
      result({
        rowsWithDrops: 2,
        droppedValues: [
          {
            field: 'email',
            reason: 'accented_letters',
            count: 2,
            message: "2 emails can't be used: accented letters Meta does not accept",
          },
        ],
        rows: [
          row(5, {
            hasCorrections: true,
            corrections: [
              { field: 'value', message: 'value "1.200,00" read as 1200', original: '', corrected: '' },
            ],
          }),
          row(3, {
            hasDrops: true,
            drops: [
              {
                field: 'email',
                reason: 'accented_letters',
                message: 'Dropped email "josé@x.com": it has accented letters Meta does not accept.',
                original: 'josé@x.com',
              },
            ],
          }),
        ],
      }),
    );
    renderPage();
    expect(
      await screen.findByText("2 emails can't be used: accented letters Meta does not accept"),
    ).toBeTruthy();
    expect(screen.getByRole('heading', { name: "Some values can't be used (2 rows)" })).toBeTruthy();
    expect(screen.queryByText('Looks great! Your data is clean and ready to submit')).toBeNull();
    // The dropped row comes before the corrected one, whatever the order received.
    expect(screen.getAllByRole('rowheader').map(text)).toEqual(['Row 3 value dropped', 'Row 5 corrected']);
    // Drops do not block: Continue stays open.
    const button = screen.getByRole('button', { name: 'Continue to Submission' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
  });

  it('filters the rows to review by kind', async () => {
    api.validate.mockResolvedValue(
      result({
        rowsWithErrors: 1,
        rows: [
          row(4, {
            hasCorrections: true,
            corrections: [{ field: 'currency', message: 'c', original: '', corrected: '' }],
          }),
          row(2, { hasErrors: true, errors: [{ field: 'email', message: 'bad' }] }),
        ],
      }),
    );
    renderPage();
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: 'Corrections (1)' }));
    expect(screen.getAllByRole('rowheader').map(text)).toEqual(['Row 4 corrected']);
    expect(screen.getByRole('button', { name: 'Corrections (1)' }).getAttribute('aria-pressed')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'All (2)' }));
    expect(screen.getAllByRole('rowheader').map(text)).toEqual(['Row 2 has errors', 'Row 4 corrected']);
  });

  it("shows event times in the file's time zone, not as Unix seconds", async () => {
    api.validate.mockResolvedValue(
      result({
        rows: [
          row(2, {
            hasCorrections: true,
            corrections: [{ field: 'currency', message: 'c', original: '', corrected: '' }],
            effectiveRow: { event_time: String(Date.UTC(2026, 10, 21, 10, 0, 0) / 1000) },
          }),
        ],
      }),
    );
    renderPage();
    expect(await screen.findByText('Nov 21, 2026, 5:00 AM EST')).toBeTruthy();
    expect(screen.queryByText(/1795255200/)).toBeNull();
  });

  it('offers to skip the rows with errors and continue, and stores the choice', async () => {
    api.validate.mockResolvedValue(
      result({
        rowsWithErrors: 2,
        rows: [row(2, { hasErrors: true, errors: [{ field: 'email', message: 'bad' }] })],
      }),
    );
    api.setStatus.mockResolvedValue({});
    renderPage();
    const skip = await screen.findByRole('button', { name: 'Skip the 2 rows with errors and continue' });
    // The spec's block stays the default.
    expect(
      (screen.getByRole('button', { name: 'Continue to Submission' }) as HTMLButtonElement).disabled,
    ).toBe(true);
    await userEvent.click(skip);
    expect(api.setStatus).toHaveBeenCalledWith('f1', { status: 'validated', skipErrorRows: true });
    expect(await screen.findByText('submit page')).toBeTruthy();
  });

  it('once skipping is chosen, says so and lets Continue through', async () => {
    api.validate.mockResolvedValue(
      result({
        rowsWithErrors: 2,
        skipErrorRows: true,
        rows: [row(2, { hasErrors: true, errors: [{ field: 'email', message: 'bad' }] })],
      }),
    );
    renderPage();
    expect(await screen.findByText('The 2 rows with errors will be skipped')).toBeTruthy();
    expect(screen.queryByText(/You must fix all errors/)).toBeNull();
    expect(
      (screen.getByRole('button', { name: 'Continue to Submission' }) as HTMLButtonElement).disabled,
    ).toBe(false);
    expect(screen.getByRole('button', { name: 'Download the rows with errors' })).toBeTruthy();
  });

  it('says beside the disabled Continue why it is disabled and how to fix it', async () => {
    api.validate.mockResolvedValue(
      result({
        // Every row has an error: nothing to skip, continuing is refused (the spec's sentence).
        rowsChecked: 2,
        rowsWithErrors: 2,
        rows: [row(2, { hasErrors: true, errors: [{ field: 'email', message: 'bad' }] })],
      }),
    );
    renderPage();
    const reason = await screen.findByText(/You must fix all errors before continuing\./);
    expect(text(reason)).toContain(
      'Correct the 2 rows with errors in your file (Download Report lists them) and upload the corrected CSV.',
    );
    const button = screen.getByRole('button', { name: 'Continue to Submission' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(button.getAttribute('aria-describedby')).toBe(reason.id);
  });

  it('never shows the skip offer and "You must fix all errors" together (issue 29)', async () => {
    api.validate.mockResolvedValue(
      result({
        rowsChecked: 22,
        rowsWithErrors: 4,
        rows: [row(2, { hasErrors: true, errors: [{ field: 'email', message: 'bad' }] })],
      }),
    );
    renderPage();
    await screen.findByRole('button', { name: 'Skip the 4 rows with errors and continue' });
    expect(screen.queryByText(/You must fix all errors/)).toBeNull();
    const reason = screen.getByText(/^To continue, skip the 4 rows with errors above/);
    expect(text(reason)).toBe(
      'To continue, skip the 4 rows with errors above, or correct them in your file (Download Report lists them) and upload the corrected CSV.',
    );
    expect(
      screen.getByRole('button', { name: 'Continue to Submission' }).getAttribute('aria-describedby'),
    ).toBe(reason.id);
  });

  it('filters count what the counters count, and say when the list holds only some of them', async () => {
    const corrected = (n: number) =>
      row(n, {
        hasCorrections: true,
        corrections: [{ field: 'phone', message: 'c', original: '', corrected: '' }],
      });
    api.validate.mockResolvedValue(
      result({
        rowsChecked: 40,
        rowsWithErrors: 1,
        rowsCorrected: 8,
        rows: [
          // A row with an error and a correction counts in both, as the counters count it.
          row(2, {
            hasErrors: true,
            errors: [{ field: 'email', message: 'bad' }],
            hasCorrections: true,
            corrections: [{ field: 'phone', message: 'c', original: '', corrected: '' }],
          }),
          corrected(3),
          corrected(4),
        ],
      }),
    );
    renderPage();
    await screen.findByRole('table');
    expect(screen.getByText('Rows auto-corrected').nextSibling?.textContent).toBe('8');
    await userEvent.click(screen.getByRole('button', { name: 'Corrections (8 rows; 3 shown)' }));
    expect(screen.getAllByRole('rowheader').map(text)).toEqual([
      'Row 2 has errors',
      'Row 3 corrected',
      'Row 4 corrected',
    ]);
    expect(screen.getByRole('button', { name: 'Errors (1)' })).toBeTruthy();
  });

  it('refund rows: Continue waits for skip or send, and the choice is stored', async () => {
    api.validate.mockResolvedValue(result({ refundRows: 2 }));
    api.refundRows.mockResolvedValue({ choice: 'skip', refundRows: 2 });
    api.setStatus.mockResolvedValue({});
    renderPage();
    expect(
      await screen.findByRole('heading', { name: '2 Purchase rows with a negative value (refunds)' }),
    ).toBeTruthy();
    const cont = screen.getByRole('button', { name: 'Continue to Submission' }) as HTMLButtonElement;
    expect(cont.disabled).toBe(true);
    expect(
      screen.getByText('Choose whether to skip or send the 2 refund rows above before continuing.'),
    ).toBeTruthy();
    expect(screen.queryByText('Looks great! Your data is clean and ready to submit')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Skip the 2 refund rows' }));
    expect(api.refundRows).toHaveBeenCalledWith('f1', 'skip');
    await waitFor(() => expect(cont.disabled).toBe(false));
    expect(screen.getByRole('button', { name: 'Skip the 2 refund rows' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    expect(screen.getByText(/The 2 rows will be skipped, not sent\./)).toBeTruthy();
    await userEvent.click(cont);
    expect(api.setStatus).toHaveBeenCalledWith('f1', { status: 'validated' });
  });

  it('shows no blocking reason on a clean file', async () => {
    api.validate.mockResolvedValue(result());
    renderPage();
    await screen.findByText('Looks great! Your data is clean and ready to submit');
    expect(screen.queryByText(/You must fix all errors/)).toBeNull();
  });

  it('shows the usual identifiers, then any other the file has', async () => {
    api.validate.mockResolvedValue(
      result({
        quality: {
          identifiers: { madid: 3, ctwa_clid: 2, state: 0 },
          rows: 3,
          score: 5,
          label: 'Good',
          advice: [],
        },
      }),
    );
    renderPage();
    await screen.findByText('Match quality estimate');
    const cells = screen.getAllByRole('term').map((dt) => `${dt.textContent} ${dt.nextSibling?.textContent}`);
    expect(cells).toEqual([
      'email 0%',
      'phone 0%',
      'first_name 0%',
      'last_name 0%',
      'zip 0%',
      'city 0%',
      'external_id 0%',
      'db 0%',
      'madid 100%',
      'ctwa_clid 67%',
    ]);
  });

  it('shows the problems met while reading the CSV', async () => {
    api.validate.mockResolvedValue(
      result({
        fileIssues: [
          {
            rowNumber: 1,
            code: 'DUPLICATE_HEADER',
            message: 'Column "Email" appears more than once; the copy in column 3 is called "Email_2".',
          },
        ],
      }),
    );
    renderPage();
    expect(await screen.findByText('Problems reading your file (1)')).toBeTruthy();
    expect(screen.getByText(/Column "Email" appears more than once/)).toBeTruthy();
  });

  it('lists the repairs made to the file, each once with its count', async () => {
    api.validate.mockResolvedValue(
      result({
        fileNotices: [
          {
            code: 'LINE_ENDINGS',
            count: 4,
            message: 'Line endings: 4 lines ended with a lone carriage return.',
          },
          { code: 'BLANK_LINES', count: 2, message: 'Blank lines: 2 empty lines were dropped.' },
        ],
      }),
    );
    renderPage();
    const list = await screen.findByRole('region', { name: 'How the file was read (2)' });
    expect([...list.querySelectorAll('li')].map(text)).toEqual([
      'Line endings: 4 lines ended with a lone carriage return.',
      'Blank lines: 2 empty lines were dropped.',
    ]);
    // A clean file with repairs is still clean.
    expect(screen.getByText('Looks great! Your data is clean and ready to submit')).toBeTruthy();
  });

  it('shows read problems beside the whole-file Validation Error too', async () => {
    api.validate.mockResolvedValue(
      result({
        error: "Your file headers don't match your mappings. x",
        fileIssues: [{ rowNumber: 7, code: 'RAGGED_ROW', message: 'Row 7 has 3 cells.' }],
      }),
    );
    renderPage();
    expect(await screen.findByText('Validation Error')).toBeTruthy();
    expect(screen.getByText('Row 7 has 3 cells.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Return to Mapping' }).getAttribute('href')).toBe(
      '/map-columns?fileId=f1',
    );
  });

  it('sends a file that is only uploaded back to mapping instead of validating it', async () => {
    api.file.mockResolvedValue({
      id: 'f1',
      fileName: 'a.csv',
      status: 'uploaded',
      rowCount: 3,
      sizeBytes: 10,
      createdAt: '',
    });
    renderPage();
    expect(await screen.findByText('map columns page')).toBeTruthy();
    expect(toast.error).toHaveBeenCalledWith('Please finish mapping this file before validating it.');
    expect(api.validate).not.toHaveBeenCalled();
  });

  it("answers a missing or another user's file with the spec toast and the dashboard", async () => {
    api.file.mockRejectedValue(new Error('404'));
    renderPage();
    expect(await screen.findByText('dashboard page')).toBeTruthy();
    expect(toast.error).toHaveBeenCalledWith('Failed to fetch uploaded file.');
    expect(api.validate).not.toHaveBeenCalled();
  });

  it('keeps why validation could not run on the page, not only in its toast', async () => {
    const limit = 'Daily limit reached: at most 5 rows validated in 24 hours. Please try again in 3 hours.';
    api.validate.mockRejectedValue(new ApiError(429, 'RATE_LIMITED', limit));
    renderPage();
    expect(await screen.findByText('Validation could not run.')).toBeTruthy();
    expect(screen.getByText(limit)).toBeTruthy();
    expect(toast.error).toHaveBeenCalledWith(limit);
  });

  it('disables the corrected-file drop zone while the file uploads', async () => {
    api.validate.mockResolvedValue(
      result({
        rowsWithErrors: 1,
        rows: [row(2, { hasErrors: true, errors: [{ field: 'email', message: 'bad' }] })],
      }),
    );
    api.uploadFixed.mockReturnValue(new Promise(() => {}));
    renderPage();
    await screen.findByText('Upload a corrected CSV');
    await userEvent.upload(
      screen.getByTestId('file-input'),
      new File(['a\n1\n'], 'fixed.csv', { type: 'text/csv' }),
    );
    const zone = (await screen.findByText('Uploading...')).closest('[role="button"]')!;
    expect(zone.getAttribute('aria-disabled')).toBe('true');
    await userEvent.upload(
      screen.getByTestId('file-input'),
      new File(['a\n1\n'], 'again.csv', { type: 'text/csv' }),
    );
    expect(api.uploadFixed).toHaveBeenCalledTimes(1);
  });

  it('puts focus on the page heading once a corrected file is checked, not on the body', async () => {
    api.validate.mockResolvedValue(
      result({
        rowsWithErrors: 1,
        rows: [row(2, { hasErrors: true, errors: [{ field: 'email', message: 'bad' }] })],
      }),
    );
    api.uploadFixed.mockResolvedValue({ headers: ['email'] });
    renderPage();
    await screen.findByText('Upload a corrected CSV');
    api.validate.mockResolvedValue(result());
    await userEvent.upload(
      screen.getByTestId('file-input'),
      new File(['a\n1\n'], 'fixed.csv', { type: 'text/csv' }),
    );
    await screen.findByText('Looks great! Your data is clean and ready to submit');
    await waitFor(() =>
      expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Validate your data' })),
    );
  });
});
