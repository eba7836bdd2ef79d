/** Identifiers that match on their own. */
export const STRONG_IDENTIFIERS: readonly string[] = [
  'email',
  'phone',
  'external_id',
  'client_ip_address',
  'fbc',
  'fbp',
  'lead_id',
  'subscription_id',
  'fb_login_id',
  'madid',
  'anon_id',
  'page_scoped_user_id',
  'ctwa_clid',
  'ig_sid',
  'ig_account_id',
];
/** Identifiers that only help together with others. */
export const WEAK_IDENTIFIERS: readonly string[] = [
  'first_name',
  'last_name',
  'db',
  'gender',
  'city',
  'state',
  'zip',
  'country',
  'client_user_agent',
];

// Combinations Meta treats as insufficient since v13 (meta-capi.md §1.6), as sets of our field keys.
const GEO = new Set(['city', 'country', 'state', 'zip', 'gender', 'client_user_agent']);
const WEAK_ONLY = [
  GEO,
  new Set(['db', 'client_user_agent']),
  new Set(['first_name', 'gender']),
  new Set(['last_name', 'gender']),
];

/** Null when the row can be matched; otherwise what is missing, in plain words. */
export function identifierProblem(eff: Readonly<Record<string, string>>): string | null {
  // A loop, not .some(): it runs for every row, and a callback made per call is not free.
  for (const k of STRONG_IDENTIFIERS) if (eff[k]) return null;
  const weak = WEAK_IDENTIFIERS.filter((k) => eff[k]);
  if (!weak.length)
    return 'No usable customer information: the row needs a valid email, phone or another identifier.';
  if (WEAK_ONLY.some((set) => weak.every((k) => set.has(k)))) {
    return `Only ${weak.join(', ')}: Meta rejects events with this little customer information. Add an email or phone.`;
  }
  return null;
}
