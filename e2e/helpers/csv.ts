/** A CRM-style export with the mess real files have, dated relative to now so it stays inside Meta's window. */
export function messyCsv(opts: { withBadRow: boolean }): string {
  const day = (d: number) => new Date(Date.now() - d * 86_400_000);
  const iso = (d: number) => day(d).toISOString().slice(0, 19) + 'Z';
  const us = (d: number) => {
    const t = day(d);
    return `${t.getUTCMonth() + 1}/${t.getUTCDate()}/${t.getUTCFullYear()}`;
  };
  const rows = [
    'Email,Phone,event_name,event_time,action_source,Value,Currency,First Name,Last Name,Zip',
    `Ann.Lee@Example.com,(650) 555-1212,purchase,${iso(1)},In Store,"$1,200.00",usd,Ann,Lee,94035-1234`,
    `mailto:bob@example.com,650.555.1213,Purchase,${day(2).getTime()},physical_store,99.5,USD,Bob,O'Neil,10001`,
    `carla@example.com,,Lead,${us(3)},system_generated,,,Carla,Díaz,`,
  ];
  if (opts.withBadRow) rows.push(`not-an-email,12,Purchase,${iso(1)},physical_store,abc,USD,,,`);
  return rows.join('\r\n') + '\r\n';
}
