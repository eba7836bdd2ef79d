const DELIVERY_CATEGORIES = ['in_store', 'curbside', 'home_delivery'] as const;
const EXAMPLE = '[{"id":"sku-1","quantity":1,"item_price":9.99}]';

export type ContentsResult = { ok: true; value: string; note?: string } | { ok: false; reason: string };

type Item = Record<string, unknown>;

// Each rule answers the typed value, or a reason in words; `converted` says a string was turned into its type.
function typedItem(item: Item, n: number, converted: Set<string>): string | null {
  const where = `item ${n}`;
  const { id, quantity, item_price: price, delivery_category: category } = item;
  if (typeof id === 'number' && Number.isFinite(id)) {
    item.id = String(id);
    converted.add('id');
  } else if (typeof id !== 'string' || !id.trim()) return `${where} needs an "id" (text, such as your SKU)`;
  else item.id = id.trim();

  if (quantity !== undefined) {
    const q = typeof quantity === 'string' && /^\s*\d+\s*$/.test(quantity) ? Number(quantity) : quantity;
    if (typeof q !== 'number' || !Number.isSafeInteger(q) || q < 1)
      return `${where} has quantity ${JSON.stringify(quantity)}; it must be a whole number of 1 or more`;
    if (q !== quantity) converted.add('quantity');
    item.quantity = q;
  }
  if (price !== undefined) {
    const p = typeof price === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(price) ? Number(price) : price;
    if (typeof p !== 'number' || !Number.isFinite(p))
      return `${where} has item_price ${JSON.stringify(price)}; it must be a number such as 9.99`;
    if (p !== price) converted.add('item_price');
    item.item_price = p;
  }
  if (category !== undefined) {
    const c =
      typeof category === 'string'
        ? DELIVERY_CATEGORIES.find((d) => d === category.trim().toLowerCase())
        : undefined;
    if (!c)
      return `${where} has delivery_category ${JSON.stringify(category)}; it must be one of ${DELIVERY_CATEGORIES.join(', ')}`;
    if (c !== category) converted.add('delivery_category');
    item.delivery_category = c;
  }
  return null;
}

/**
 * custom_data.contents typed as Meta documents it (meta-capi.md §1.8): id text, quantity a whole number,
 * item_price a number, delivery_category one of in_store, curbside, home_delivery. Numbers written as text
 * ("2") are converted and reported; anything else is an error naming the item and the field.
 */
export function parseContents(raw: string): ContentsResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { ok: false, reason: `is not valid JSON; write it like ${EXAMPLE}` };
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  if (!list.length) return { ok: false, reason: `is an empty list; write it like ${EXAMPLE}` };
  const converted = new Set<string>();
  const items: Item[] = [];
  for (let i = 0; i < list.length; i++) {
    const x: unknown = list[i];
    if (!x || typeof x !== 'object' || Array.isArray(x))
      return { ok: false, reason: `item ${i + 1} is not an object like ${EXAMPLE}` };
    const item = { ...(x as Item) };
    const problem = typedItem(item, i + 1, converted);
    if (problem) return { ok: false, reason: problem };
    items.push(item);
  }
  const value = JSON.stringify(items);
  return converted.size
    ? { ok: true, value, note: `contents: ${[...converted].join(', ')} converted to the type Meta expects` }
    : { ok: true, value };
}
