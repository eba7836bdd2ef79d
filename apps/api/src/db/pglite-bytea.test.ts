import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb } from '../../test/context.ts';
import type { Db } from './db.ts';
import { parseBytea, serializeBytea } from './pglite-bytea.mjs';

const every = Uint8Array.from({ length: 256 }, (_, i) => i);

describe('bytea codec', () => {
  it('writes the hex text form PostgreSQL reads, for every byte value', () => {
    const hex = serializeBytea(every);
    expect(hex.slice(0, 2)).toBe('\\x');
    expect(hex.slice(2, 10)).toBe('00010203');
    expect(hex.slice(-4)).toBe('feff');
    expect(parseBytea(hex)).toEqual(every);
  });

  it('serialises only the view, not the whole underlying buffer', () => {
    const view = every.subarray(250, 253);
    expect(serializeBytea(view)).toBe('\\xfafbfc');
  });

  it('refuses what is not bytes', () => {
    expect(() => serializeBytea('abc')).toThrow('Invalid input for bytea type');
  });
});

let db: Db;
let drop: () => Promise<void>;
beforeAll(async () => {
  ({ db, drop } = await openTestDb());
  await db.exec('create table b (id int primary key, data bytea not null)');
});
afterAll(() => drop());

describe(`bytea round trip (${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'})`, () => {
  it('stores and reads back all 256 byte values, empty and large values, byte for byte', async () => {
    const large = Uint8Array.from({ length: 64 * 1024 }, (_, i) => (i * 7919) & 255);
    const values = [every, new Uint8Array(0), large, every.subarray(1, 2)];
    for (const [i, v] of values.entries()) await db.query('insert into b (id, data) values ($1, $2)', [i, v]);
    const { rows } = await db.query<{ data: Uint8Array; n: number; first: number; last: number }>(
      'select data, length(data) as n, get_byte(data, 0) as first, get_byte(data, length(data) - 1) as last from b where id = 0',
    );
    // The server sees the bytes themselves, not their text.
    expect(rows[0]).toMatchObject({ n: 256, first: 0, last: 255 });
    for (const [i, v] of values.entries()) {
      const r = await db.query<{ data: Uint8Array }>('select data from b where id = $1', [i]);
      expect(r.rows[0]!.data).toBeInstanceOf(Uint8Array);
      expect(Array.from(r.rows[0]!.data)).toEqual(Array.from(v));
    }
  });
});
