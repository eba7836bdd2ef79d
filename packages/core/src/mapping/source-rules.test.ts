import { describe, expect, it } from 'vitest';
import { createSourceRuleTracker, sourceRuleProblems } from './source-rules.ts';

describe('sourceRuleProblems (the mapping screen)', () => {
  it('a fixed website source without event_source_url fails every row', () => {
    const p = sourceRuleProblems({
      mappings: { Email: 'email', UA: 'client_user_agent' },
      hardcoded: { action_source: 'website' },
    });
    expect(p).toEqual([
      {
        source: 'website',
        missing: ['event_source_url'],
        scope: 'fixed',
        message:
          'action_source is website for every row. Meta needs event_source_url for website events: map a column or set a fixed value for event_source_url.',
      },
    ]);
  });

  it('names every missing field of the source, and an app source needs its app data', () => {
    expect(sourceRuleProblems({ mappings: {}, hardcoded: { action_source: 'website' } })[0]?.message).toBe(
      'action_source is website for every row. Meta needs event_source_url and client_user_agent for website events: map a column or set a fixed value for event_source_url and client_user_agent.',
    );
    const app = sourceRuleProblems({ mappings: { X: 'extinfo' }, hardcoded: { action_source: 'App' } });
    expect(app.map((p) => [p.source, p.missing, p.scope])).toEqual([
      ['app', ['advertiser_tracking_enabled'], 'fixed'],
    ]);
  });

  it('is met by a mapped column or a fixed value', () => {
    expect(
      sourceRuleProblems({
        mappings: { Url: 'event_source_url' },
        hardcoded: { action_source: 'website', client_user_agent: 'Mozilla/5.0' },
      }),
    ).toEqual([]);
    expect(sourceRuleProblems({ mappings: {}, hardcoded: { action_source: 'physical_store' } })).toEqual([]);
    // A blank fixed value is no value (spec: hardcoded counts only when non-empty after trimming).
    expect(
      sourceRuleProblems({
        mappings: { Url: 'event_source_url' },
        hardcoded: { action_source: 'website', client_user_agent: '  ' },
      }).map((p) => p.missing),
    ).toEqual([['client_user_agent']]);
  });

  it('reads a mapped column from its sample values: all website, or some', () => {
    const mappings = { Channel: 'action_source' };
    const all = sourceRuleProblems({
      mappings,
      hardcoded: { client_user_agent: 'x' },
      samples: { Channel: ['Website', 'web site', 'website'] },
    });
    expect(all.map((p) => p.scope)).toEqual(['column-all']);
    expect(all[0]!.message).toBe(
      'The action_source column "Channel" reads website in every sample row. Meta needs event_source_url for website events: map a column or set a fixed value for event_source_url.',
    );
    const some = sourceRuleProblems({
      mappings,
      hardcoded: { client_user_agent: 'x' },
      samples: { Channel: ['physical_store', 'website'] },
    });
    expect(some.map((p) => p.scope)).toEqual(['column-some']);
    expect(some[0]!.message).toMatch(/^Some rows of the action_source column "Channel" are website events/);
    expect(
      sourceRuleProblems({ mappings, hardcoded: {}, samples: { Channel: ['physical_store', 'phone_call'] } }),
    ).toEqual([]);
    // No samples (an empty column): nothing can be said before validation.
    expect(sourceRuleProblems({ mappings, hardcoded: {}, samples: {} })).toEqual([]);
  });

  it('says nothing when action_source has no source yet (the spec message covers it)', () => {
    expect(sourceRuleProblems({ mappings: {}, hardcoded: {} })).toEqual([]);
  });
});

describe('createSourceRuleTracker (validation over the file)', () => {
  const unmapped = { mappings: { Email: 'email', UA: 'client_user_agent' }, hardcoded: {} };

  it('every row a website event without a URL source: one file-level message', () => {
    const t = createSourceRuleTracker(unmapped);
    for (let i = 0; i < 22; i++) t.add({ action_source: 'website' });
    expect(t.result(22)).toBe(
      'Every row is a website event. Meta needs event_source_url for website events: map a column or set a fixed value for event_source_url.',
    );
  });

  it('mixed sources keep their row errors', () => {
    const t = createSourceRuleTracker(unmapped);
    t.add({ action_source: 'website' });
    t.add({ action_source: 'physical_store' });
    expect(t.result(2)).toBeNull();
    // A row whose action_source was refused is not a website event either.
    const u = createSourceRuleTracker(unmapped);
    u.add({ action_source: 'website' });
    u.add({});
    expect(u.result(2)).toBeNull();
  });

  it('nothing to say when the fields have a source, or no row was read', () => {
    const t = createSourceRuleTracker({
      mappings: { Url: 'event_source_url' },
      hardcoded: { client_user_agent: 'ua' },
    });
    t.add({ action_source: 'website' });
    expect(t.result(1)).toBeNull();
    expect(createSourceRuleTracker(unmapped).result(0)).toBeNull();
  });
});
