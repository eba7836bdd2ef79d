import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MappedFieldRow } from './MapColumnsPage.tsx';

describe('MappedFieldRow column choices', () => {
  it('shows a sample beside every column, not only the selected one', () => {
    render(
      <ul>
        <MappedFieldRow
          row={{ field: 'email', mode: 'column', column: '', value: '', auto: false }}
          headers={['Email', 'Notes', 'Empty']}
          samples={{
            Email: ['ann@example.com'],
            Notes: ['a very long free-text note that goes on and on'],
            Empty: [],
          }}
          used={new Map([['Notes', 'lead_id']])}
          onChange={() => {}}
        />
      </ul>,
    );
    const options = [...(screen.getByLabelText('Email') as HTMLSelectElement).options].map(
      (o) => o.textContent,
    );
    expect(options).toEqual([
      'Select a CSV column',
      'Email — e.g. ann@example.com',
      'Notes — e.g. a very long free-text n… (in use)',
      'Empty',
    ]);
  });

  it('names the field by its label, with its key beside it', () => {
    render(
      <ul>
        <MappedFieldRow
          row={{ field: 'event_time', mode: 'column', column: '', value: '', auto: false }}
          headers={['When']}
          samples={{}}
          used={new Map()}
          onChange={() => {}}
        />
      </ul>,
    );
    expect(screen.getByLabelText('Event time').tagName).toBe('SELECT');
    expect(screen.getByText('Event time').closest('li')!.querySelector('code')!.textContent).toBe(
      'event_time',
    );
  });
});
