import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { ResetPasswordPage } from './ResetPasswordPage.tsx';

describe('ResetPasswordPage', () => {
  it('offers a new link when this one cannot be used', () => {
    render(
      <MemoryRouter initialEntries={['/reset-password']}>
        <ResetPasswordPage />
      </MemoryRouter>,
    );
    expect(screen.getByText('Invalid or missing token.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Get a new reset link' }).getAttribute('href')).toBe(
      '/forgot-password',
    );
  });
});
