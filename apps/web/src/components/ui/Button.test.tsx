import { describe, expect, it } from 'vitest';
import { buttonClass } from './Button.tsx';

describe('buttonClass', () => {
  it('lets a text colour given to a ghost button win over its default grey', () => {
    expect(buttonClass('ghost', 'text-red-700')).not.toContain('text-slate-700');
    expect(buttonClass('ghost', 'px-2 text-xs')).toContain('text-slate-700');
  });
  it('draws destructive openers red and outlined', () => {
    expect(buttonClass('danger-outline')).toMatch(/text-red-700.*ring-red-300/);
  });
});
