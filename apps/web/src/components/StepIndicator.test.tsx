import { describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
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

describe('StepIndicator animation (spec §9)', () => {
  it('takes about 800 ms per step, at least 400 ms, and nothing for the same step', async () => {
    const { stepAnimationMs } = await import('./StepIndicator.tsx');
    expect(stepAnimationMs(null, 3)).toBe(0);
    expect(stepAnimationMs(3, 3)).toBe(0);
    expect(stepAnimationMs(2, 3)).toBe(800);
    expect(stepAnimationMs(2, 5)).toBe(2400);
    expect(stepAnimationMs(4, 3)).toBe(800);
  });

  it('moves the bar on from the step the previous screen showed', async () => {
    const first = render(<StepIndicator step={2} />);
    first.unmount();
    render(<StepIndicator step={3} />);
    const bar = screen.getByTestId('step-bar');
    expect(bar.style.transitionDuration).toBe('800ms');
    await waitFor(() => expect(bar.style.width).toBe('60%'));
  });
});
