import { describe, expect, it } from 'vitest';
import { CORPUS } from './corpus/exports.ts';
import { suggestMappings } from './suggest.ts';

/** Every column of every export: its suggestion beside what a careful marketer would pick (null: nothing). */
function score() {
  let keys = 0;
  let right = 0;
  const wrong: string[] = [];
  const missed: string[] = [];
  for (const file of CORPUS) {
    const { forward } = suggestMappings(file.headers);
    for (const header of file.headers) {
      const want = file.expect[header] ?? null;
      const got = forward[header] ?? null;
      if (want) keys++;
      if (want && got === want) right++;
      else if (got) wrong.push(`${file.name}: "${header}" → ${got} (want ${want ?? 'nothing'})`);
      else if (want) missed.push(`${file.name}: "${header}" (want ${want})`);
    }
  }
  return { keys, right, wrong, missed };
}

describe('suggestions over the export corpus (decision 0050)', () => {
  it('holds at least 15 exports, each key column present in its header row', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(15);
    for (const file of CORPUS) {
      expect(file.source).not.toBe('');
      for (const column of Object.keys(file.expect)) expect(file.headers).toContain(column);
    }
  });

  it('suggests at least 90% of the key columns right and never a wrong field', () => {
    const { keys, right, wrong, missed } = score();
    const share = right / keys;
    console.info(
      `Corpus: ${right}/${keys} key columns right (${(share * 100).toFixed(1)}%), ${wrong.length} wrong, ` +
        `${CORPUS.length} exports${missed.length ? `\nMissed:\n  ${missed.join('\n  ')}` : ''}`,
    );
    expect(wrong).toEqual([]);
    expect(share).toBeGreaterThanOrEqual(0.9);
  });
});
