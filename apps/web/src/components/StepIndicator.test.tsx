import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { StepIndicator } from './StepIndicator.tsx';

describe('StepIndicator', () => {
  it('says the step in its text, without an aria-label (prohibited on a paragraph, so ignored)', () => {
    render(<StepIndicator step={3} />);
    const pill = screen.getByText(/^Step 3 of 5/);
    expect(pill.tagName).toBe('P');
    expect(pill.hasAttribute('aria-label')).toBe(false);
    expect(pill.textContent).toBe('Step 3 of 5 • Validate Data');
  });
});
