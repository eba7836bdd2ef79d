const LIMIT = 10_000;
const FRONT = 64; // a power of two

/**
 * Value → result for one column whose values repeat (countries, states, cities, names, event names, currencies),
 * per file and bounded. A cell is a new string on every row, so a map lookup first hashes all its characters;
 * a small table in front, indexed by its length and three of its characters, answers most repeats with one string
 * comparison instead.
 */
export class ValueMemo<T> {
  private readonly map = new Map<string, T>();
  private readonly frontKeys: string[] = Array.from({ length: FRONT }, () => '');
  private readonly frontValues: (T | undefined)[] = Array.from({ length: FRONT }, () => undefined);

  get(value: string): T | undefined {
    const i = slot(value);
    if (this.frontKeys[i] === value) return this.frontValues[i];
    const hit = this.map.get(value);
    if (hit !== undefined) {
      this.frontKeys[i] = value;
      this.frontValues[i] = hit;
    }
    return hit;
  }

  set(value: string, result: T): T {
    if (this.map.size >= LIMIT) this.map.clear();
    this.map.set(value, result);
    const i = slot(value);
    this.frontKeys[i] = value;
    this.frontValues[i] = result;
    return result;
  }
}

function slot(value: string): number {
  const n = value.length;
  return (
    (n * 31 + value.charCodeAt(0) * 7 + value.charCodeAt(n >> 1) * 3 + value.charCodeAt(n - 1)) & (FRONT - 1)
  );
}
