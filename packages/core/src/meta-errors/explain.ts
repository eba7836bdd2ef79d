import { parseGraphError, verdictFor, type GraphError, type Verdict } from './classify.ts';

/** What the summary shows for a failed batch: our words first, then Meta's own (spec §8). */
export interface ErrorExplanation {
  /** Short plain-language headline. */
  title: string;
  /** What happened, in plain words. */
  explanation: string;
  /** What the user should do. */
  fix: string;
  /** Meta's own title and message (error_user_title / error_user_msg, else message), or 'Unknown error format'. */
  metaTitle: string | null;
  metaMessage: string;
}

export const UNKNOWN_ERROR_FORMAT = 'Unknown error format';

interface Known {
  title: string;
  explanation: string;
  fix: string;
}

const TOKEN: Known = {
  title: 'Access token expired or invalid',
  explanation:
    'Meta no longer accepts the access token saved with this pixel account, so nothing more was sent.',
  fix: 'Reconnect the pixel account: create a new access token in Events Manager (Settings → Conversions API → Generate access token), paste it as the pixel account’s new token, then retry: only the events not delivered yet are sent.',
};
const PERMISSION: Known = {
  title: 'Permission denied',
  explanation: 'The access token is valid but is not allowed to send events to this pixel.',
  fix: 'Generate the token from the pixel itself in Events Manager, or give the system user access to the dataset with full control, then retry the send.',
};
const PIXEL: Known = {
  title: 'Wrong pixel ID or no access',
  explanation: 'Meta could not find this pixel ID, or the token cannot reach it.',
  fix: 'Check the pixel (dataset) ID in Events Manager and that the token was generated for that same pixel, then update the pixel account and retry the send.',
};
const RATE: Known = {
  title: 'Meta asked us to slow down',
  explanation:
    'Meta rate-limited or temporarily could not take the request. Backsignal waited and retried, but the batch still did not go through.',
  fix: 'Wait a few minutes and download the failed rows to send them again as a new file.',
};
const TOO_OLD: Known = {
  title: 'Event too old',
  explanation:
    'Meta only accepts events from the last 7 days (62 days for physical store events). This batch had an older event_time, so Meta refused it.',
  fix: 'Remove rows older than the window, or for in-store sales set action_source to physical_store, then upload those rows again.',
};
const NOT_HASHED: Known = {
  title: 'Customer information not hashed',
  explanation: 'Meta received a customer field that was not a SHA-256 hash.',
  fix: 'Map the column to the matching customer field so Backsignal normalises and hashes it, or hash it yourself before uploading.',
};
const INSUFFICIENT: Known = {
  title: 'Not enough customer information',
  explanation: 'These events did not carry enough customer details for Meta to match them to people.',
  fix: 'Add an email or phone number (or both) to these rows; city, zip or country alone is not enough.',
};
const MISSING_VALUE: Known = {
  title: 'Purchase without value or currency',
  explanation: 'Purchase events must carry a value and a currency.',
  fix: 'Map the value and currency columns (or set a hardcoded currency) and send those rows again.',
};
const INVALID: Known = {
  title: 'Meta rejected these rows',
  explanation: 'Meta said a value in these rows is invalid.',
  fix: 'Read Meta’s message below, correct the rows in the downloaded file and upload them again.',
};
const TRANSIENT: Known = {
  title: 'Meta could not be reached',
  explanation: 'Meta did not answer in time or answered with a server error on every attempt.',
  fix: 'Wait a few minutes, download the failed rows and send them again as a new file.',
};
const BLOCKED: Known = {
  title: 'Meta temporarily blocked sending',
  explanation:
    'Meta blocked requests from this account for a while because of a policy violation, and still did after every retry.',
  fix: 'Check Meta’s message below and your Business Manager’s account quality page, then send the failed rows again once the block is lifted.',
};

const ENDPOINT: Known = {
  title: 'The answer did not come from Meta',
  explanation:
    'The request reached an address that is not Meta’s Conversions API (for example a proxy page or a wrong URL), so nothing in this batch was delivered.',
  fix: 'Nothing is wrong with your rows. Contact us: the Meta address Backsignal sends to needs fixing. Then send the file again.',
};

const BY_SUBCODE: Record<number, Known> = {
  2804003: TOO_OLD,
  2804016: NOT_HASHED,
  2804050: INSUFFICIENT,
  2804009: MISSING_VALUE,
};

function known(verdict: Verdict | null, e: GraphError | null): Known {
  if (e?.subcode && BY_SUBCODE[e.subcode]) return BY_SUBCODE[e.subcode]!;
  switch (verdict) {
    case 'token':
      return TOKEN;
    case 'permission':
      return PERMISSION;
    case 'pixel':
      return PIXEL;
    case 'endpoint':
      return ENDPOINT;
    case 'retry':
      if (e?.code === 368) return BLOCKED;
      return e?.code !== null && e?.code !== undefined && [4, 17, 32, 341, 613, 80003, 80004].includes(e.code)
        ? RATE
        : TRANSIENT;
    default:
      return INVALID;
  }
}

/**
 * Why a run stopped. Token, permission and pixel stops read Meta's answer; an 'internal' stop carries our own
 * plain message (the file changed, the pipeline refused it, repeated internal errors, an address that is not Meta).
 */
export function explainStop(reason: Verdict | 'internal', stored: string | null): ErrorExplanation {
  if (reason !== 'internal') return explainMetaError(stored, reason);
  const e = parseGraphError(stored);
  return {
    title: 'Backsignal could not finish sending',
    explanation: e
      ? 'Sending stopped on an answer Backsignal could not act on.'
      : (stored ?? 'Sending stopped on an internal error.'),
    fix: 'Nothing more will be sent for this file. Upload it again to send the rest: events this pixel already received are skipped. If it happens again, contact us.',
    metaTitle: e?.userTitle ?? null,
    metaMessage: e ? (e.userMessage ?? e.message ?? UNKNOWN_ERROR_FORMAT) : UNKNOWN_ERROR_FORMAT,
  };
}

/**
 * Plain-language explanation for a stored batch error. `raw` is what Meta answered (object or JSON text);
 * anything that is not a Graph error keeps our explanation and shows 'Unknown error format' as Meta's text.
 */
export function explainMetaError(raw: unknown, verdict: Verdict | null = null): ErrorExplanation {
  const e = parseGraphError(raw);
  const k = known(verdict ?? (e ? verdictFor(400, e) : null), e);
  const metaTitle = e?.userTitle ?? null;
  const metaMessage = e ? (e.userMessage ?? e.message ?? UNKNOWN_ERROR_FORMAT) : UNKNOWN_ERROR_FORMAT;
  return { ...k, metaTitle, metaMessage };
}
