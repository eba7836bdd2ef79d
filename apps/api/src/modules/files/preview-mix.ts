/**
 * At most `limit` rows (spec: 10), most severe first, but every kind present gets its share: ten rows with
 * errors must not hide that emails were dropped. Slots go round the lists in severity order.
 */
export function previewMix<T>(lists: T[][], limit: number): T[] {
  const taken = lists.map(() => 0);
  let n = 0;
  for (let more = true; more && n < limit;) {
    more = false;
    for (let i = 0; i < lists.length && n < limit; i++)
      if (taken[i]! < lists[i]!.length) {
        taken[i]!++;
        n++;
        more = true;
      }
  }
  return lists.flatMap((l, i) => l.slice(0, taken[i]));
}
