import {
  INSIGHT_FIX_GROUP_LABELS,
  INSIGHT_FIX_GROUPS,
  type InsightFixGroup,
  type Insights,
} from '@backsignal/contracts';
import { ChartCard, DataTable } from './ChartCard.tsx';
import { PALETTE } from './charts.tsx';
import { fmt, pct } from './insights-api.ts';

/**
 * What Backsignal does to each group's values before sending, in a marketer's words: the corrections validation
 * reports (packages/core's normalisers and event-time reading; docs/normalization.md), not the routine clean-up
 * every value gets (trimming, lowercasing, hashing), which is never counted as a fix.
 */
export const FIX_EXPLANATIONS: Record<InsightFixGroup, string> = {
  email:
    'Cleaned so Meta can match them: "mailto:", names around the address, quotes, stray separators, trailing dots and invisible characters removed, and the first address kept when a cell held several.',
  phone:
    "Country code added where a number had none, taken from the row's country or the file's default country, with spaces, dashes and brackets removed.",
  name: 'The apostrophe a spreadsheet puts in front of text to keep it as text removed.',
  date_of_birth:
    'Rewritten as year, month and day without separators (1990-01-31 becomes 19900131), the form Meta asks for; dates written in other orders or with month names are read too.',
  address:
    'US state names turned into their two-letter codes (California becomes CA), country names into their ISO codes, and ZIP+4 codes shortened to five digits.',
  event_time:
    'Converted to the seconds Meta expects: times written in milliseconds, spreadsheet date numbers and fractions of a second; a date without a time of day is given 12:00 in the file’s time zone.',
  value:
    'Currency symbols turned into codes ($ becomes USD), and amounts whose separators could be read two ways (1.234) read the way the rest of the column is written.',
  other:
    'Other values put the way Meta expects them, such as standard event names spelled as Meta spells them (purchase becomes Purchase) and action sources in Meta’s words (In Store becomes physical_store).',
};

export type FixesState =
  | { kind: 'nothing-sent' }
  | { kind: 'not-counted' }
  | { kind: 'nothing-fixed'; uncounted: number }
  | { kind: 'fixed'; uncounted: number; rows: { group: InsightFixGroup; events: number }[] };

/**
 * What the card says. Sends that ended before fixes were counted per send (decision 0123) have no count at all,
 * which is not "nothing needed fixing": `fixesCounted` below `sent` says how many events were left out.
 */
export function fixesState(t: Insights['totals']): FixesState {
  if (t.sent === 0) return { kind: 'nothing-sent' };
  if (t.fixesCounted === 0) return { kind: 'not-counted' };
  const uncounted = Math.max(0, t.sent - t.fixesCounted);
  const rows = INSIGHT_FIX_GROUPS.filter((g) => t.fixed[g] > 0).map((group) => ({
    group,
    events: t.fixed[group],
  }));
  return rows.length ? { kind: 'fixed', uncounted, rows } : { kind: 'nothing-fixed', uncounted };
}

const uncountedNote = (n: number) =>
  n > 0 ? ` ${fmt(n)} events sent before Backsignal counted its fixes per send are left out.` : '';

/** "Fixed automatically": per group, the sent events in which Backsignal corrected a value before sending. */
export function FixesSection({ data, print }: { data: Insights; print?: boolean }) {
  const state = fixesState(data.totals);
  const counted = data.totals.fixesCounted;
  const top = state.kind === 'fixed' ? Math.max(...state.rows.map((r) => r.events)) : 1;
  // The share is of the events whose fixes were counted: all sent events, unless some were sent before.
  const of = state.kind === 'fixed' && state.uncounted ? 'counted events' : 'sent events';
  return (
    <ChartCard
      title="Fixed automatically"
      description={
        <>
          Sent events in which Backsignal corrected a value before sending it, so that Meta could use it. An
          event can count in more than one line.
          {state.kind === 'fixed' || state.kind === 'nothing-fixed' ? uncountedNote(state.uncounted) : ''}
        </>
      }
      print={print}
      empty={
        state.kind === 'fixed' ? undefined : (
          <p className="text-sm text-slate-600">
            {state.kind === 'nothing-sent'
              ? 'Nothing was sent in these days, so nothing needed fixing.'
              : state.kind === 'not-counted'
                ? 'These events were sent before Backsignal counted its fixes per send, so they are not counted here. Your next send will show here.'
                : 'Nothing needed fixing in these days.'}
          </p>
        )
      }
      chart={
        state.kind === 'fixed' ? (
          <ul className="space-y-4" aria-label="Values fixed automatically">
            {state.rows.map(({ group, events }, i) => (
              <li key={group} className="break-inside-avoid">
                <div className="flex flex-wrap items-baseline justify-between gap-x-2 text-sm">
                  <span className="font-semibold text-slate-900">
                    {INSIGHT_FIX_GROUP_LABELS[group]}: {fmt(events)} {events === 1 ? 'event' : 'events'}
                  </span>
                  <span className="tabular-nums text-slate-500">
                    {pct(events, counted)} of {of}
                  </span>
                </div>
                <div className="mt-1 h-2 rounded bg-slate-100" aria-hidden="true">
                  <div
                    className="h-2 rounded"
                    style={{
                      width: `${(events / top) * 100}%`,
                      background: PALETTE[i % PALETTE.length],
                    }}
                  />
                </div>
                <p className="mt-1 text-sm text-slate-600">{FIX_EXPLANATIONS[group]}</p>
              </li>
            ))}
          </ul>
        ) : null
      }
      table={
        state.kind === 'fixed' ? (
          <DataTable
            caption="Events fixed automatically"
            head={['What was fixed', 'Events', `Share of ${of}`]}
            rows={state.rows.map(({ group, events }) => [
              INSIGHT_FIX_GROUP_LABELS[group],
              fmt(events),
              pct(events, counted),
            ])}
          />
        ) : null
      }
    />
  );
}
