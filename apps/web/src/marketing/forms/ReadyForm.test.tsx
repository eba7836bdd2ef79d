import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ReadyForm } from './ReadyForm.tsx';

// A disabled <fieldset> disables its controls without setting their own `disabled` property.
const disabled = (el: HTMLElement) => el.matches(':disabled');

const form = (
  <ReadyForm aria-label="Join">
    <input aria-label="Email" />
    <button type="submit">Join the waitlist</button>
  </ReadyForm>
);

describe('ReadyForm', () => {
  it('is prerendered with its controls disabled and a loading note', () => {
    document.body.innerHTML = renderToString(form);
    expect(disabled(screen.getByRole('textbox', { name: 'Email' }))).toBe(true);
    expect(disabled(screen.getByRole('button', { name: 'Join the waitlist' }))).toBe(true);
    expect(screen.getByRole('group').getAttribute('aria-describedby')).toBe(
      screen.getByText('Loading the form...').id,
    );
    document.body.innerHTML = '';
  });

  it('enables its controls once hydrated, without a hydration mismatch', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(form);
    document.body.append(container);
    const onRecoverableError = vi.fn();
    const root = await act(async () => hydrateRoot(container, form, { onRecoverableError }));
    expect(disabled(screen.getByRole('textbox', { name: 'Email' }))).toBe(false);
    expect(disabled(screen.getByRole('button', { name: 'Join the waitlist' }))).toBe(false);
    expect(screen.queryByText('Loading the form...')).toBeNull();
    expect(onRecoverableError).not.toHaveBeenCalled();
    act(() => root.unmount());
    container.remove();
  });

  it('is ready at once when the app renders it (client-side navigation)', () => {
    render(form);
    expect(disabled(screen.getByRole('button', { name: 'Join the waitlist' }))).toBe(false);
    expect(screen.queryByText('Loading the form...')).toBeNull();
  });
});
