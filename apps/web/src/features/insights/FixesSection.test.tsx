import { INSIGHT_FIX_GROUPS, type Insights } from '@backsignal/contracts';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FIX_EXPLANATIONS, FixesSection, fixesState } from './FixesSection.tsx';

const ZERO = Object.fromEntries(INSIGHT_FIX_GROUPS.map((g) => [g, 0])) as Insights['totals']['fixed'];
const totals = (t: Partial<Insights['totals']>): Insights['totals'] => ({
  sent: 0,
  failed: 0,
  skipped: 0,
  keyed: 0,
  score: null,
  keys: { email: 0, phone: 0, name: 0, address: 0, external_id: 0 },
  fixesCounted: 0,
  fixed: ZERO,
  ...t,
});
const data = (t: Partial<Insights['totals']>) => ({ totals: totals(t) }) as Insights;

describe('fixesState', () => {
  it('tells nothing sent, not counted, nothing fixed and fixed apart', () => {
    expect(fixesState(totals({}))).toEqual({ kind: 'nothing-sent' });
    expect(fixesState(totals({ sent: 5 }))).toEqual({ kind: 'not-counted' });
    expect(fixesState(totals({ sent: 5, fixesCounted: 5 }))).toEqual({ kind: 'nothing-fixed', uncounted: 0 });
    expect(fixesState(totals({ sent: 9, fixesCounted: 5, fixed: { ...ZERO, phone: 3, email: 1 } }))).toEqual({
      kind: 'fixed',
      uncounted: 4,
      rows: [
        { group: 'email', events: 1 },
        { group: 'phone', events: 3 },
      ],
    });
  });

  it('explains every group', () => {
    for (const g of INSIGHT_FIX_GROUPS) expect(FIX_EXPLANATIONS[g].length).toBeGreaterThan(20);
  });
});

describe('FixesSection', () => {
  it('lists each group with a count, its explanation, and the same numbers as a table', () => {
    render(<FixesSection data={data({ sent: 1300, fixesCounted: 1300, fixed: { ...ZERO, phone: 1234 } })} />);
    const card = screen.getByRole('region', { name: 'Fixed automatically' });
    const list = within(card).getByRole('list', { name: 'Values fixed automatically' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(1);
    expect(within(list).getByText('Phone numbers: 1,234 events')).toBeTruthy();
    expect(within(list).getByText('95% of sent events')).toBeTruthy();
    expect(within(list).getByText(FIX_EXPLANATIONS.phone)).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: 'Show table' }));
    const table = within(card).getByRole('table', { name: 'Events fixed automatically' });
    expect(within(table).getByRole('rowheader', { name: 'Phone numbers' })).toBeTruthy();
    expect(within(table).getByRole('cell', { name: '1,234' })).toBeTruthy();
  });

  it('says when sends before counting are left out, and when they are all there is', () => {
    const { unmount } = render(
      <FixesSection data={data({ sent: 10, fixesCounted: 4, fixed: { ...ZERO, email: 1 } })} />,
    );
    expect(
      screen.getByText(/6 events sent before Backsignal counted its fixes per send are left out/),
    ).toBeTruthy();
    expect(screen.getByText('Email addresses: 1 event')).toBeTruthy();
    expect(screen.getByText('25% of counted events')).toBeTruthy();
    unmount();
    render(<FixesSection data={data({ sent: 10 })} />);
    expect(
      screen.getByText(/These events were sent before Backsignal counted its fixes per send/),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show table' })).toBeNull();
  });

  it('says nothing needed fixing, or nothing was sent', () => {
    const { unmount } = render(<FixesSection data={data({ sent: 3, fixesCounted: 3 })} />);
    expect(screen.getByText('Nothing needed fixing in these days.')).toBeTruthy();
    unmount();
    render(<FixesSection data={data({})} print />);
    expect(screen.getByText('Nothing was sent in these days, so nothing needed fixing.')).toBeTruthy();
  });

  it('prints the list and the table together', () => {
    render(
      <FixesSection data={data({ sent: 2, fixesCounted: 2, fixed: { ...ZERO, date_of_birth: 2 } })} print />,
    );
    expect(screen.getByText('Dates of birth: 2 events')).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Events fixed automatically' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Show table' })).toBeNull();
  });
});
