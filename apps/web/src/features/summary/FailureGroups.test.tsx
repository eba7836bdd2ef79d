import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DeliverySummary, FailureGroup } from '@backsignal/contracts';
import { FailureGroups, sampleRowsText } from './FailureGroups.tsx';
import { summaryApi } from './summary-api.ts';

vi.mock('react-toastify', () => ({ toast: { error: vi.fn() } }));
vi.mock('./summary-api.ts', () => ({ summaryApi: { downloadAllFailed: vi.fn() } }));

const group = (title: string, events: number, sampleRows: number[]): FailureGroup => ({
  key: title,
  events,
  batches: events,
  sampleRows,
  explanation: {
    title,
    explanation: `${title} explained.`,
    fix: `Fix ${title}.`,
    metaTitle: 'T',
    metaMessage: 'M',
  },
});

const summary = (failureGroups: FailureGroup[]) =>
  ({ progress: { eventsFailed: 66 }, failureGroups }) as unknown as DeliverySummary;

describe('FailureGroups', () => {
  it('shows one card per reason with its count, explanation, fix and sample rows, and one download', async () => {
    render(
      <FailureGroups
        summary={summary([
          group('Event too old', 60, [2, 3, 4, 5, 6]),
          group('Meta rejected these rows', 6, [9]),
        ])}
        fileId="f1"
        fileName="leads.csv"
      />,
    );
    expect(screen.getByText(/66 events failed for 2 reasons/)).toBeTruthy();
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    const old = screen.getByRole('listitem', { name: 'Event too old' });
    expect(old.textContent).toContain('60 events');
    expect(old.textContent).toContain('Fix Event too old.');
    expect(old.textContent).toContain('Rows 2, 3, 4, 5, 6 and 55 more');
    await userEvent.click(screen.getByRole('button', { name: 'Download all failed rows' }));
    expect(summaryApi.downloadAllFailed).toHaveBeenCalledWith('f1', 'leads.csv');
  });

  it('shows nothing when nothing failed', () => {
    const { container } = render(<FailureGroups summary={summary([])} fileId="f1" fileName="a.csv" />);
    expect(container.textContent).toBe('');
  });

  it('words sample rows', () => {
    expect(sampleRowsText({ events: 1, sampleRows: [7] })).toBe('Row 7');
    expect(sampleRowsText({ events: 2, sampleRows: [7, 9] })).toBe('Rows 7, 9');
  });
});
