/**
 * Query parameters whose value is a credential, compared case-insensitively. A link can carry its own key: an S3
 * or Google Cloud Storage presigned URL (signature, credential, session token), an Azure SAS (`sig`), a CRM export
 * with `token=` or `api_key=`, an OAuth `code`. Stored or shown as typed, anyone who reads the database, a log or
 * the screen could fetch the file, so these values are sealed like a header token (decision 0102) and cut out of
 * logged URLs. The one list: the API's sealing, its log redaction and the web form all read it.
 */
export const SECRET_QUERY_PARAMS: readonly string[] = [
  'x-amz-signature',
  'x-amz-credential',
  'x-amz-security-token',
  'x-goog-signature',
  'x-goog-credential',
  'sig',
  'signature',
  'token',
  'access_token',
  'key',
  'api_key',
  'apikey',
  'secret',
  'password',
  'auth',
  'code',
];

const SECRET_NAMES = new Set(SECRET_QUERY_PARAMS);

/** What stands for a stored secret value: the pixel accounts' token mask, without the last four characters. */
export const SECRET_MASK = '••••••••';

const decode = (s: string) => {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
};

/** Whether a query parameter (as written in a URL, percent-encoded or not) carries a secret. */
export const isSecretParam = (rawName: string) => SECRET_NAMES.has(decode(rawName).trim().toLowerCase());

/** One secret query value: the parameter's name and value as written in the URL (still percent-encoded). */
export interface UrlSecret {
  name: string;
  value: string;
}

/** The URL's query parameters as written, and what is around them. */
function parts(url: string) {
  const hash = url.indexOf('#');
  const beforeHash = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? '' : url.slice(hash);
  const q = beforeHash.indexOf('?');
  if (q < 0) return null;
  const params = beforeHash
    .slice(q + 1)
    .split('&')
    .map((piece) => {
      const eq = piece.indexOf('=');
      return eq < 0 ? { piece } : { piece, name: piece.slice(0, eq), value: piece.slice(eq + 1) };
    });
  return { base: beforeHash.slice(0, q), params, fragment };
}

const isMask = (value: string) => decode(value) === SECRET_MASK;

/**
 * A URL with the values of its secret query parameters masked, and those parameters in order: each with its
 * value as typed, or null where the URL already showed the mask (the stored value is meant). The rest of the
 * URL is kept as written.
 */
export function splitUrlSecrets(url: string): {
  url: string;
  params: { name: string; value: string | null }[];
} {
  const p = parts(url);
  if (!p) return { url, params: [] };
  const params: { name: string; value: string | null }[] = [];
  const pieces = p.params.map((x) => {
    if (x.name === undefined || !x.value || !isSecretParam(x.name)) return x.piece;
    params.push({ name: x.name, value: isMask(x.value) ? null : x.value });
    return `${x.name}=${SECRET_MASK}`;
  });
  return { url: `${p.base}?${pieces.join('&')}${p.fragment}`, params };
}

/** The names of the URL's secret parameters shown masked (whose stored values are meant), once each. */
export const maskedParams = (url: string) => [
  ...new Set(
    splitUrlSecrets(url)
      .params.filter((p) => p.value === null)
      .map((p) => p.name),
  ),
];

const key = (name: string) => decode(name).trim().toLowerCase();

/**
 * The URL with each masked value put back from `values` (matched by parameter name, in order), or the names
 * that have no value left for their mask.
 */
export function fillUrlSecrets(
  url: string,
  values: readonly UrlSecret[],
): { url: string; missing: string[] } {
  const p = parts(url);
  if (!p) return { url, missing: [] };
  const left = [...values];
  const missing: string[] = [];
  const pieces = p.params.map((x) => {
    if (x.name === undefined || !x.value || !isSecretParam(x.name) || !isMask(x.value)) return x.piece;
    const at = left.findIndex((v) => key(v.name) === key(x.name!));
    if (at < 0) {
      if (!missing.includes(x.name)) missing.push(x.name);
      return x.piece;
    }
    const [v] = left.splice(at, 1);
    return `${x.name}=${v!.value}`;
  });
  return { url: `${p.base}?${pieces.join('&')}${p.fragment}`, missing };
}

/**
 * What the owner reads when masked values cannot be filled in: `again` when stored values exist but may not go
 * to this URL (another origin or path), as for a header token.
 */
export function urlSecretMessage(names: readonly string[], again: boolean): string {
  const what = `${names.length > 1 ? 'values' : 'value'} of ${names.join(', ')}`;
  return again
    ? `Enter the ${what} in the URL again: stored values are kept only for the same URL.`
    : `Enter the ${what} in the URL.`;
}
