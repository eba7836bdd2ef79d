/**
 * Every target field a CSV column can be mapped to (spec §3 groups; meta-capi.md §1.5–1.11), with where it
 * goes in a Meta server event and whether it is hashed.
 */
export type FieldGroup = 'event' | 'user' | 'app' | 'original' | 'custom';
export type FieldType = 'string' | 'number' | 'integer' | 'boolean' | 'timestamp' | 'list' | 'enum' | 'json';
export type Placement = 'top' | 'user_data' | 'custom_data' | 'app_data' | 'original_event_data';

export interface FieldDef {
  key: string;
  group: FieldGroup;
  label: string;
  description: string;
  type: FieldType;
  /** Values offered in hardcoded mode (spec §5) or Meta's enum. */
  allowedValues?: readonly string[];
  hashed: boolean;
  /** The key in Meta's payload ('em', 'ph', 'value', 'mileage.unit', ...). */
  metaKey: string;
  placement: Placement;
  required: boolean;
}

const DOCS = 'https://developers.facebook.com/docs/marketing-api/conversions-api/parameters';
export const FIELD_GROUPS = [
  { group: 'event', label: 'Event Info', docsUrl: `${DOCS}/server-event` },
  { group: 'user', label: 'User Data', docsUrl: `${DOCS}/customer-information-parameters` },
  {
    group: 'app',
    label: 'App Data',
    docsUrl: 'https://developers.facebook.com/docs/marketing-api/conversions-api/app-events',
  },
  { group: 'original', label: 'Original Event Data', docsUrl: `${DOCS}/original-event-data` },
  { group: 'custom', label: 'Standard Parameters', docsUrl: `${DOCS}/custom-data` },
] as const satisfies readonly { group: FieldGroup; label: string; docsUrl: string }[];

export const ACTION_SOURCES = [
  'email',
  'website',
  'app',
  'phone_call',
  'chat',
  'physical_store',
  'system_generated',
  'other',
] as const;
export const CURRENCY_CHOICES = ['USD', 'CAD', 'EUR', 'GBP', 'AUD'] as const;

type Spec = [key: string, type: FieldType, description: string, extra?: Partial<FieldDef>];

/** Words written their usual way in a label: "Order ID", "Client IP address", "Event source URL". */
const SPELLED: Readonly<Record<string, string>> = {
  id: 'ID',
  ids: 'IDs',
  ip: 'IP',
  url: 'URL',
  ltv: 'LTV',
  dma: 'DMA',
  vin: 'VIN',
  ldu: 'LDU',
};

/** A human label from a key: "event_time" → "Event time", "order_id" → "Order ID". */
const label = (key: string) =>
  key
    .replace(/^fb_/, 'fb ')
    .split(/[_.]/)
    .filter(Boolean)
    .map((w) => SPELLED[w] ?? w)
    .map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w))
    .join(' ');

function group(g: FieldGroup, placement: Placement, specs: Spec[]): FieldDef[] {
  return specs.map(([key, type, description, extra]) => ({
    key,
    group: g,
    label: extra?.label ?? label(key),
    description,
    type,
    hashed: false,
    metaKey: key,
    placement,
    required: false,
    ...extra,
  }));
}

const EVENT = group('event', 'top', [
  [
    'event_name',
    'string',
    'A standard event such as Purchase or Lead, or your own custom event name.',
    { required: true },
  ],
  [
    'event_time',
    'timestamp',
    'When the conversion happened. Dates, date-times and Unix timestamps are converted to Unix seconds.',
    { required: true },
  ],
  [
    'action_source',
    'enum',
    'Where the conversion happened, e.g. physical_store or phone_call.',
    { required: true, allowedValues: ACTION_SOURCES },
  ],
  ['event_source_url', 'string', 'The page URL of the event; required for website events.'],
  ['event_id', 'string', 'Your unique id for the event (e.g. an order id). Meta uses it to drop duplicates.'],
  [
    'opt_out',
    'boolean',
    'true when the event may be used for attribution only, not ad optimisation.',
    { allowedValues: ['true', 'false'] },
  ],
  ['referrer_url', 'string', 'The referrer of the page the event happened on.'],
  ['data_processing_options', 'list', 'Limited Data Use: LDU, or empty.', { allowedValues: ['LDU'] }],
  ['data_processing_options_country', 'integer', 'LDU country: 1 for the US, 0 to let Meta geolocate.'],
  ['data_processing_options_state', 'integer', 'LDU state: 1000 for California, 0 to let Meta geolocate.'],
  [
    'customer_segmentation',
    'enum',
    "The customer's relationship to the business, e.g. new_customer_to_business.",
    {
      allowedValues: [
        'new_customer_to_business',
        'new_customer_to_business_line',
        'new_customer_to_product_area',
        'new_customer_to_medium',
        'existing_customer_to_business',
        'existing_customer_to_business_line',
        'existing_customer_to_product_area',
        'existing_customer_to_medium',
        'customer_in_loyalty_program',
      ],
    },
  ],
]);

const hashedUser = (
  key: string,
  metaKey: string,
  description: string,
  extra: Partial<FieldDef> = {},
): Spec => [key, 'string', description, { hashed: true, metaKey, ...extra }];

const USER = group('user', 'user_data', [
  hashedUser('email', 'em', 'Email address. Trimmed, lowercased and SHA-256 hashed.'),
  hashedUser(
    'phone',
    'ph',
    "Phone number with country code. A missing one comes from the row's country, else the file setting.",
  ),
  hashedUser('first_name', 'fn', 'First name. Lowercased, punctuation removed, hashed.'),
  hashedUser('last_name', 'ln', 'Last name. Lowercased, punctuation removed, hashed.'),
  hashedUser('db', 'db', 'Date of birth, any common format; sent as YYYYMMDD, hashed.', {
    label: 'Date of birth',
  }),
  hashedUser('gender', 'ge', 'f or m, hashed.', { allowedValues: ['f', 'm'] }),
  hashedUser('city', 'ct', 'City, lowercased without spaces or punctuation, hashed.'),
  hashedUser('state', 'st', 'State or province; US state names become 2-letter codes. Hashed.', {
    label: 'State / province',
  }),
  hashedUser('zip', 'zp', 'Zip or postal code; US codes use the first 5 digits. Hashed.', {
    label: 'Zip / postal code',
  }),
  hashedUser('country', 'country', 'Country; names become ISO 2-letter codes. Hashed.'),
  hashedUser(
    'external_id',
    'external_id',
    'Your customer id (CRM or loyalty id). Trimmed, lowercased, hashed.',
  ),
  ['client_ip_address', 'string', 'The customer IP address (IPv4 or IPv6). Not hashed.'],
  ['client_user_agent', 'string', 'The browser user agent. Not hashed; required for website events.'],
  ['fbc', 'string', 'Click id cookie, fb.1.<ms>.<fbclid>. Not hashed.', { label: 'Click ID cookie' }],
  ['fbp', 'string', 'Browser id cookie, fb.1.<ms>.<random>. Not hashed.', { label: 'Browser ID cookie' }],
  ['subscription_id', 'string', 'The subscription id of the user for this transaction.'],
  [
    'fb_login_id',
    'string',
    'The id issued by Meta when a person logs in with Facebook Login.',
    { label: 'Facebook Login ID' },
  ],
  ['lead_id', 'string', 'Meta Lead Ads lead id (15–17 digits). Not hashed.'],
  ['anon_id', 'string', 'Install id of an app.', { label: 'App install ID' }],
  ['madid', 'string', 'Mobile advertiser id (IDFA or AAID).', { label: 'Mobile advertiser ID' }],
  ['page_id', 'string', 'The Facebook Page id.'],
  ['page_scoped_user_id', 'string', 'The page-scoped user id.'],
  ['ctwa_clid', 'string', 'Click-to-WhatsApp ad click id.', { label: 'WhatsApp ad click ID' }],
  ['ig_account_id', 'string', 'Instagram account id.', { label: 'Instagram account ID' }],
  ['ig_sid', 'string', 'Instagram-scoped user id.', { label: 'Instagram-scoped user ID' }],
]);

const APP = group('app', 'app_data', [
  [
    'advertiser_tracking_enabled',
    'enum',
    'iOS 14.5+: 1 if the user allowed tracking.',
    { allowedValues: ['0', '1'] },
  ],
  ['application_tracking_enabled', 'enum', '1 if the app allows tracking.', { allowedValues: ['0', '1'] }],
  [
    'extinfo',
    'json',
    "Meta's 16 device values in order (version a2 or i2 first): a JSON array, or separated by | or commas.",
  ],
  ['campaign_ids', 'string', 'Campaign ids the app install came from.'],
  ['install_referrer', 'string', 'Android install referrer.'],
  ['installer_package', 'string', 'Android installer package.'],
  ['url_schemes', 'list', 'URL schemes of the app.'],
  ['vendor_id', 'string', 'iOS identifier for vendor.'],
  ['windows_attribution_id', 'string', 'Windows attribution id.'],
]);

const ORIGINAL = group('original', 'original_event_data', [
  ['original_event_name', 'string', 'Name of the event this one follows up.', { metaKey: 'event_name' }],
  ['original_event_time', 'timestamp', 'Time of the original event.', { metaKey: 'event_time' }],
  ['original_order_id', 'string', 'Order id of the original event.', { metaKey: 'order_id' }],
  ['original_event_id', 'string', 'Event id of the original event.', { metaKey: 'event_id' }],
]);

// meta-capi.md §1.7: the 69 website parameters, offline item_number and the app fb_* parameters.
// city, country, region and postal_code exist in user data too, so their keys carry a custom_ prefix here.
const str = (key: string, description = 'Standard parameter.'): Spec => [key, 'string', description];
const num = (key: string, description: string): Spec => [key, 'number', description];
const int = (key: string, description: string): Spec => [key, 'integer', description];
const list = (key: string, description: string): Spec => [key, 'list', description];
const CUSTOM = group('custom', 'custom_data', [
  num('value', 'Monetary value of the event, e.g. 142.52. Required for Purchase.'),
  [
    'currency',
    'enum',
    'ISO 4217 currency code, e.g. USD. Required for Purchase.',
    { allowedValues: CURRENCY_CHOICES },
  ],
  str('order_id', 'Your order or transaction id.'),
  list('content_ids', 'Product ids or SKUs, separated by commas or pipes.'),
  ['content_type', 'enum', 'product or product_group.', { allowedValues: ['product', 'product_group'] }],
  ['contents', 'json', 'JSON list of {id, quantity, item_price}.'],
  int('num_items', 'Number of items.'),
  num('price', 'Price of the item.'),
  num('net_revenue', 'Net revenue of the event.'),
  num('predicted_ltv', 'Predicted lifetime value of the customer.'),
  [
    'delivery_category',
    'enum',
    'in_store, curbside or home_delivery.',
    { allowedValues: ['in_store', 'curbside', 'home_delivery'] },
  ],
  str('item_number', 'Offline item number.'),
  str('availability'),
  str('body_style'),
  str('checkin_date'),
  [
    'custom_city',
    'string',
    'City of the listing or trip.',
    { metaKey: 'city', label: 'City (standard parameter)' },
  ],
  str('condition_of_vehicle'),
  [
    'custom_country',
    'string',
    'Country of the listing or trip.',
    { metaKey: 'country', label: 'Country (standard parameter)' },
  ],
  str('departing_arrival_date'),
  str('departing_departure_date'),
  str('destination_airport'),
  list('destination_ids', 'Destination ids.'),
  str('dma_code'),
  str('drivetrain'),
  str('exterior_color'),
  str('fuel_type'),
  num('hotel_score', 'Hotel score.'),
  str('interior_color'),
  str('lead_event_source', 'The CRM or system the lead came from.'),
  str('lease_end_date'),
  str('lease_start_date'),
  str('listing_type'),
  str('make'),
  ['mileage_unit', 'string', 'Mileage unit (MI or KM).', { metaKey: 'mileage.unit' }],
  ['mileage_value', 'number', 'Mileage value.', { metaKey: 'mileage.value' }],
  str('model'),
  str('neighborhood'),
  int('num_adults', 'Number of adults.'),
  int('num_children', 'Number of children.'),
  int('num_infants', 'Number of infants.'),
  str('origin_airport'),
  [
    'custom_postal_code',
    'string',
    'Postal code of the listing.',
    { metaKey: 'postal_code', label: 'Postal code (standard parameter)' },
  ],
  str('preferred_baths_range'),
  str('preferred_beds_range'),
  list('preferred_neighborhoods', 'Preferred neighborhoods.'),
  str('preferred_num_stops'),
  str('preferred_price_range'),
  list('preferred_star_ratings', 'Preferred star ratings.'),
  str('product_catalog_id'),
  str('property_type'),
  [
    'custom_region',
    'string',
    'Region of the listing.',
    { metaKey: 'region', label: 'Region (standard parameter)' },
  ],
  str('returning_arrival_date'),
  str('returning_departure_date'),
  str('search_string'),
  str('state_of_vehicle'),
  list('suggested_destinations', 'Suggested destination ids.'),
  list('suggested_home_listings', 'Suggested home listing ids.'),
  list('suggested_hotels', 'Suggested hotel ids.'),
  list('suggested_jobs', 'Suggested job ids.'),
  list('suggested_local_service_businesses', 'Suggested local service business ids.'),
  list('suggested_location_based_items', 'Suggested location-based item ids.'),
  list('suggested_vehicles', 'Suggested vehicle ids.'),
  str('transmission'),
  [
    'travel_class',
    'enum',
    'economy, premium_economy, business or first.',
    { allowedValues: ['economy', 'premium_economy', 'business', 'first'] },
  ],
  str('travel_end'),
  str('travel_start'),
  str('trim'),
  str('user_bucket'),
  str('vin'),
  int('year', 'Model year.'),
  str('ad_type', 'App event: ad type.'),
  str('fb_content', 'App event: content.'),
  str('fb_content_id', 'App event: content id.'),
  str('fb_description', 'App event: description.'),
  str('fb_level', 'App event: level.'),
  num('fb_max_rating_value', 'App event: maximum rating value.'),
  [
    'fb_payment_info_available',
    'enum',
    'App event: 1 if payment info is available.',
    { allowedValues: ['0', '1'] },
  ],
  str('fb_registration_method', 'App event: registration method.'),
  ['fb_success', 'enum', 'App event: true if the action succeeded.', { allowedValues: ['true', 'false'] }],
  num('_valueToSum', 'App event: value to sum.'),
]);

export const FIELDS: readonly FieldDef[] = [...EVENT, ...USER, ...APP, ...ORIGINAL, ...CUSTOM];
export const FIELD_BY_KEY: ReadonlyMap<string, FieldDef> = new Map(FIELDS.map((f) => [f.key, f]));
export const REQUIRED_FIELDS = ['event_name', 'event_time', 'action_source'] as const;

export const fieldsOfGroup = (g: FieldGroup): FieldDef[] => FIELDS.filter((f) => f.group === g);

// Spec §5: these fields offer their allowed values as a select when hardcoded; every other field takes free text
// (opt_out, data_processing_options, content_type and customer_segmentation have allowed values too, but only
// for validation).
const HARDCODED_SELECTS = new Set([
  'action_source',
  'gender',
  'currency',
  'delivery_category',
  'advertiser_tracking_enabled',
  'application_tracking_enabled',
  'travel_class',
  'fb_payment_info_available',
  'fb_success',
]);

/** The values a hardcoded field offers as a select, or null when it takes free text (spec §5). */
export const hardcodedChoices = (def: FieldDef): readonly string[] | null =>
  HARDCODED_SELECTS.has(def.key) ? (def.allowedValues ?? null) : null;
