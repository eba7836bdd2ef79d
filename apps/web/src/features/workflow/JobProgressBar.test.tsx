import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { JobProgressBar, jobProgressText } from './JobProgressBar.tsx';
import type { JobProgress } from './upload-job.ts';

const p = (over: Partial<JobProgress> = {}): JobProgress => ({
  kind: 'validate',
  stage: 'reading',
  rowsDone: 412_000,
  rowsTotal: 1_000_000,
  ...over,
});

describe('JobProgressBar', () => {
  it('says how many rows of the file are done, as a progressbar screen readers can read', () => {
    render(<JobProgressBar kind="validate" progress={p()} />);
    expect(screen.getByText('Validating… 412,000 of 1,000,000 rows')).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Validation progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('41');
    expect(bar.getAttribute('aria-valuetext')).toBe('Validating… 412,000 of 1,000,000 rows');
  });

  it('before the first answer: the verb and an empty bar', () => {
    render(<JobProgressBar kind="prepare" progress={null} />);
    expect(screen.getByText('Preparing…')).toBeTruthy();
    expect(
      screen.getByRole('progressbar', { name: 'Preparation progress' }).getAttribute('aria-valuenow'),
    ).toBe('0');
  });

  it('names the stages around the rows: waiting for a worker, saving the results (full bar)', () => {
    expect(jobProgressText(p({ stage: 'queued', rowsDone: 0 }))).toBe(
      'Validating… waiting for a free worker',
    );
    expect(jobProgressText(p({ kind: 'prepare', stage: 'finishing' }))).toBe('Preparing… saving the results');
    render(<JobProgressBar kind="prepare" progress={p({ kind: 'prepare', stage: 'finishing' })} />);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
  });

  it('never shows more rows done than the file has', () => {
    expect(jobProgressText(p({ rowsDone: 12, rowsTotal: 10 }))).toBe('Validating… 10 of 10 rows');
  });
});
