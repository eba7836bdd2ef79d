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
