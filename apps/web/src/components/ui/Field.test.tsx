import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { SelectField, TextAreaField, TextField } from './Field.tsx';

/** The text of the elements aria-describedby points at. */
const description = (el: HTMLElement) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');

describe('form fields', () => {
  it('describe their control with the hint', () => {
    render(
      <>
        <TextField label="Email" hint="Your email address cannot be changed here." />
        <SelectField label="Role" hint="Optional.">
          <option>IT</option>
        </SelectField>
        <TextAreaField label="Message" hint="Up to 2,000 characters." />
      </>,
    );
    expect(description(screen.getByLabelText('Email'))).toBe('Your email address cannot be changed here.');
    expect(description(screen.getByLabelText('Role'))).toBe('Optional.');
    expect(description(screen.getByLabelText('Message'))).toBe('Up to 2,000 characters.');
  });

  it('describe their control with the error instead of the hint when there is one', () => {
    render(
      <>
        <TextField label="Email" hint="A hint" error="Email is required." />
        <SelectField label="Role" error="Pick a role.">
          <option>IT</option>
        </SelectField>
      </>,
    );
    expect(description(screen.getByLabelText('Email'))).toBe('Email is required.');
    expect(description(screen.getByLabelText('Role'))).toBe('Pick a role.');
  });

  it('have no description without a hint or an error', () => {
    render(<TextField label="Company" />);
    expect(screen.getByLabelText('Company').hasAttribute('aria-describedby')).toBe(false);
  });
});

describe('Field: a required control says so', () => {
  it('marks a required input, select and text area with an asterisk and aria-required', () => {
    render(
      <>
        <TextField label="Name" required />
        <SelectField label="Reason" required>
          <option value="">Choose</option>
        </SelectField>
        <TextAreaField label="Message" required />
      </>,
    );
    for (const label of ['Name', 'Reason', 'Message']) {
      // The field's name stays its label's words: the asterisk is beside the label, not in it.
      const control = screen.getByLabelText(label, { exact: true });
      expect(control.getAttribute('aria-required')).toBe('true');
      const mark = control.parentElement!.querySelector('[aria-hidden]');
      expect(mark?.textContent).toBe('*');
      expect(mark?.closest('label')).toBeNull();
    }
  });

  it('leaves an optional field unmarked', () => {
    render(<TextField label="Company (optional)" />);
    const control = screen.getByLabelText('Company (optional)');
    expect(control.hasAttribute('aria-required')).toBe(false);
    expect(control.parentElement!.textContent).toBe('Company (optional)');
  });
});
