/**
 * The header dictionary behind column suggestions (decision 0050): the names real exports give their columns
 * (Shopify, WooCommerce, HubSpot, Salesforce, Pipedrive, Zoho, Stripe, Square, QuickBooks, Meta Lead Ads,
 * Google Forms, Typeform, Calendly, ServiceTitan, Mailchimp), as phrases of lowercase words.
 *
 * A phrase's rank says how sure the name is: when two columns claim one field, the lower rank wins ("Paid at"
 * over "Created at", "Phone" over "Mobile").
 */

/** Splits a header into lowercase words: "Billing Zip" → billing zip, "InvoiceNo" → invoice no, "Job #" → job number. */
export function headerWords(header: string): string[] {
  return header
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/#/g, ' number ')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

type Entry = readonly [field: string, rank: number];
const phrases = (field: string, rank: number, list: string[]): [string, Entry][] =>
  list.map((p) => [p, [field, rank]]);

/** Phrase → field and rank. Bare ids ("Customer ID", "Order #") are read by their qualifiers instead. */
export const PHRASES: ReadonlyMap<string, Entry> = new Map([
  ...phrases('email', 0, ['email', 'e mail', 'email address', 'e mail address', 'emails', 'mail', 'em']),
  ...phrases('phone', 0, ['phone', 'phone number', 'telephone', 'telephone number', 'tel', 'ph', 'phone no']),
  ...phrases('phone', 1, [
    'mobile',
    'mobile number',
    'mobile phone',
    'mobile phone number',
    'cell',
    'cell phone',
    'phone numbers',
    'contact number',
    'text reminder number',
  ]),
  ...phrases('first_name', 0, ['first name', 'firstname', 'first', 'fn', 'given name', 'forename', 'fname']),
  ...phrases('last_name', 0, ['last name', 'lastname', 'last', 'ln', 'surname', 'family name', 'lname']),
  // A whole name, split into first and last name when neither has a column (decision 0097). A bare "Name" is a
  // person's only in a list of people, never in an order export (Shopify's "Name" is the order's "#1001").
  ...phrases('full_name', 0, ['full name', 'fullname', 'name']),
  ...phrases('db', 0, ['dob', 'date of birth', 'dateofbirth', 'birthdate', 'birth date', 'birthday', 'db']),
  ...phrases('gender', 0, ['gender', 'sex']),
  ...phrases('city', 0, ['city', 'ct', 'town', 'city town']),
  ...phrases('state', 0, [
    'state',
    'st',
    'region',
    'province',
    'state province',
    'state region',
    'state code',
    'province code',
    'region code',
  ]),
  ...phrases('state', 1, ['province name', 'state name']),
  ...phrases('zip', 0, [
    'zip',
    'zip code',
    'zipcode',
    'postal',
    'postcode',
    'postal code',
    'post code',
    'zip postal code',
    'postal zip code',
    'zip postal',
  ]),
  ...phrases('country', 0, ['country', 'country code', 'country region']),
  ...phrases('country', 1, ['country name']),
  ...phrases('client_ip_address', 0, ['ip', 'ip address', 'client ip', 'client ip address']),
  ...phrases('client_ip_address', 1, ['optin ip', 'signup ip', 'submission ip']),
  ...phrases('client_user_agent', 0, ['ua', 'user agent', 'client user agent', 'browser user agent']),
  ...phrases('external_id', 0, ['externalid', 'external id', 'crm id']),
  // Spec §3's alias. A campaign is no person's id: it gives way wherever the row shows it is a campaign name.
  ...phrases('external_id', 3, ['campaign']),
  ...phrases('lead_id', 0, ['leadgen id', 'facebook lead id', 'meta lead id', 'fb lead id']),
  ...phrases('event_name', 0, ['event', 'event name', 'conversion event']),
  ...phrases('event_id', 0, ['event id', 'dedup id', 'deduplication id']),
  ...phrases('action_source', 0, ['action source', 'src']),
  ...phrases('event_time', 0, [
    'event time',
    'event date',
    'conversion time',
    'conversion date',
    'timestamp',
    'time stamp',
    'paid at',
    'paid date',
    'payment date',
    'purchase date',
    'order date',
    'transaction date',
    'sale date',
    'invoice date',
    'won time',
    'won date',
    'close date',
    'closed date',
    'closed at',
    'completed',
    'completed at',
    'completed date',
    'completion date',
    'submit date',
    'submitted',
    'submitted at',
    'submitted on',
    'submission date',
    'date submitted',
  ]),
  ...phrases('event_time', 1, [
    'created',
    'created at',
    'created date',
    'create date',
    'created time',
    'created on',
    'creation date',
    'date created',
    'date added',
    'date',
    'datetime',
    'date time',
    'event created date time',
  ]),
  ...phrases('event_time', 2, [
    'date registered',
    'registration date',
    'registered at',
    'signup date',
    'sign up date',
    'subscribed at',
    'optin time',
    'optin date',
    'confirm time',
  ]),
  ...phrases('value', 0, [
    'value',
    'val',
    'price',
    'revenue',
    'total',
    'amount',
    'total amount',
    'grand total',
    'total price',
    'total collected',
    'amount paid',
    'total paid',
    'sale amount',
    'purchase amount',
    'conversion value',
  ]),
  ...phrases('value', 1, ['net sales', 'gross sales']),
  ...phrases('currency', 0, ['currency', 'curr', 'currency code']),
  ...phrases('content_ids', 0, ['sku', 'skus', 'productid', 'product id', 'content ids', 'content id']),
  ...phrases('fbc', 0, ['fbc']),
  ...phrases('fbp', 0, ['fbp']),
  ...phrases('ctwa_clid', 0, ['ctwa clid']),
]);

/** Fields a column about a person or an address may hold. */
const PERSON = [
  'email',
  'phone',
  'first_name',
  'last_name',
  'full_name',
  'db',
  'gender',
  'city',
  'state',
  'zip',
  'country',
];
const ADDRESS = ['email', 'phone', 'first_name', 'last_name', 'full_name', 'city', 'state', 'zip', 'country'];
const ORDER = ['value', 'currency', 'event_time'];

export type IdKind = 'person' | 'order' | 'order-weak' | null;
interface Qualifier {
  /** Added to the phrase's rank: a plain "Phone" beats "Billing Phone", which beats "Shipping Phone". */
  penalty: number;
  allows: readonly string[];
  /** What a bare id after this word identifies: "Customer ID" a person, "Order #" an order, "Card ID" nothing. */
  id: IdKind;
}
const q = (penalty: number, allows: readonly string[], id: IdKind, words: string[]) =>
  words.map((w): [string, Qualifier] => [w, { penalty, allows, id }]);

/** Words that qualify a phrase without changing what it holds: "Billing City" is a city. */
export const QUALIFIERS: ReadonlyMap<string, Qualifier> = new Map([
  ...q(0.1, [...PERSON, 'event_time'], 'person', [
    'customer',
    'contact',
    'person',
    'invitee',
    'buyer',
    'client',
    'user',
    'lead',
    'respondent',
    'subscriber',
    'member',
    'attendee',
    'your',
    'square',
    'patient',
  ]),
  ...q(0.2, ADDRESS, null, ['mobile', 'primary', 'main', 'personal', 'cell']),
  ...q(0.3, ADDRESS, null, [
    'billing',
    'bill',
    'to',
    'mailing',
    'card',
    'address',
    'default',
    'location',
    'work',
    'home',
    'service',
  ]),
  ...q(0.4, ADDRESS, null, ['shipping', 'ship', 'delivery', 'secondary', 'other', 'alternate', 'alt']),
  ...q(0.1, ['content_ids'], null, ['lineitem', 'line', 'item', 'product', 'variant']),
  ...q(0.1, ORDER, 'order', ['order', 'transaction', 'deal', 'job', 'sale', 'booking', 'purchase']),
  ...q(0.5, ORDER, 'order-weak', ['invoice', 'receipt']),
  ...q(1.5, ['currency'], 'order-weak', ['payment']),
  // "Created (UTC)", "Submit Date (UTC)": the zone says how to read the time, not what it is.
  ...q(0, ['event_time'], null, ['utc', 'gmt']),
]);

/** Words that make a column someone else's: the account owner's email, the technician's phone, a company's city. */
export const VETO = new Set([
  'owner',
  'rep',
  'staff',
  'agent',
  'employee',
  'technician',
  'assigned',
  'manager',
  'company',
  'organization',
  'organisation',
  'org',
  'vendor',
  'seller',
  'merchant',
  'referrer',
  'referral',
  'referred',
  'sender',
  'guest',
  'emergency',
  'by',
]);

/** Qualifiers that may also close a header ("Email (Billing)", "Phone - Mobile", "Created (UTC)"); others
 * only open one, so "Postal Address" is no postal code. */
export const TRAILING = new Set([
  'billing',
  'shipping',
  'mailing',
  'work',
  'home',
  'mobile',
  'personal',
  'primary',
  'main',
  'cell',
  'secondary',
  'other',
  'alternate',
  'alt',
  'utc',
  'gmt',
]);

/** Words a bare id is read from: "ID", "Record ID", "No.", "Num", "#". */
export const ID_WORDS = new Set(['id', 'number', 'no', 'num', 'record id']);
