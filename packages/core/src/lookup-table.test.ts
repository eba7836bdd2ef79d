import { describe, expect, it } from 'vitest';
import { lookupTable } from './lookup-table.ts';

describe('lookupTable', () => {
  const table = lookupTable({ store: 'physical_store' });
  it('answers its own keys', () => expect(table.store).toBe('physical_store'));
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'])(
    'has nothing under %j',
    (key) => expect(table[key]).toBeUndefined(),
  );
  it('cannot be changed', () => expect(Object.isFrozen(table)).toBe(true));
});
