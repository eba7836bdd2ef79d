import { CORPUS } from '../../packages/core/src/mapping/corpus/exports.ts';

const quote = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The header row of a corpus export ('Shopify orders', 'HubSpot contacts', ...). */
export function exportHeaders(name: string): readonly string[] {
  const found = CORPUS.find((e) => e.name === name);
  if (!found) throw new Error(`no corpus export named ${name}`);
  return found.headers;
}

/** A CSV with the given columns (all of an export's by default) and rows; cells not given are left empty. */
export function exportCsv(headers: readonly string[], rows: Record<string, string>[]): string {
  const lines = [headers.map(quote).join(',')];
  for (const row of rows) lines.push(headers.map((h) => quote(row[h] ?? '')).join(','));
  return lines.join('\r\n') + '\r\n';
}

/** Shopify orders, dated inside Meta's 7-day window. */
export function shopifyOrderRows(count: number): Record<string, string>[] {
  return Array.from({ length: count }, (_, i) => {
    const paid = new Date(Date.now() - (i + 1) * 3_600_000).toISOString().replace('T', ' ').slice(0, 19);
    return {
      Name: `#${1001 + i}`,
      Email: `buyer${i}@example.com`,
      'Financial Status': 'paid',
      'Paid at': `${paid} +0000`,
      'Created at': `${paid} +0000`,
      Currency: 'USD',
      Subtotal: '29.98',
      Taxes: '2.40',
      Total: '32.38',
      'Lineitem quantity': '2',
      'Lineitem name': 'Crew Tee - Black / S',
      'Lineitem price': '14.99',
      'Lineitem sku': `TEE-${i}`,
      'Billing Name': 'Ann Example',
      'Billing City': 'Austin',
      'Billing Zip': '78701',
      'Billing Province': 'TX',
      'Billing Country': 'US',
      'Billing Phone': '(512) 555-0100',
      Phone: `+1512555010${i}`,
      Id: `5${i}0012345`,
      Source: 'web',
    };
  });
}
