export type ExtinfoResult = { ok: true; value: string } | { ok: false; reason: string };

const EXAMPLE =
  'i2|com.example.app|1.0|1.0 long|17.4|iPhone15,2|en_US|GMT-5||390|844|3|2|256|200|America/New_York';
const LENGTH = 16;

/**
 * app_data.extinfo: Meta's 16 values of device information, in order, every one present (an empty string for
 * an unknown one), the first the version (`a2` Android, `i2` iOS) and the fifth the OS version, both required
 * (meta-capi.md §1.11). Written as a JSON array, or separated by pipes or commas. The value is the JSON array
 * text, since a value may hold a comma itself (Meta's own device model example is "iPhone5,1").
 */
export function parseExtinfo(raw: string): ExtinfoResult {
  const v = raw.trim();
  let values: string[];
  if (v.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(v);
    } catch {
      return { ok: false, reason: 'is not a valid JSON array' };
    }
    if (!Array.isArray(parsed) || parsed.some((x) => typeof x !== 'string' && typeof x !== 'number'))
      return { ok: false, reason: 'must be a list of text values' };
    values = parsed.map((x) => String(x).trim());
  } else values = v.split(v.includes('|') ? '|' : ',').map((s) => s.trim());
  if (values.length !== LENGTH)
    return {
      ok: false,
      reason: `must have ${LENGTH} values in Meta's order (empty ones kept), not ${values.length}; for example ${EXAMPLE}, or a JSON array`,
    };
  const version = values[0]!.toLowerCase();
  if (version !== 'a2' && version !== 'i2')
    return { ok: false, reason: `must start with its version, a2 (Android) or i2 (iOS), not "${values[0]}"` };
  if (!values[4]) return { ok: false, reason: 'needs the OS version as its fifth value' };
  values[0] = version;
  return { ok: true, value: JSON.stringify(values) };
}
