import type { RowCorrection, RowIssue } from '../validate/row-validator.ts';

/**
 * What Insights counts as "fixed automatically": the groups of fields whose values validation corrected, each a
 * bit of an event's fix code (bit i: group i). The order is contracts' INSIGHT_FIX_GROUPS; eight groups, so a
 * code fits a byte.
 */
export const FIX_GROUPS = [
  'email',
  'phone',
  'name',
  'date_of_birth',
  'address',
  'event_time',
  'value',
  'other',
] as const;
export type FixGroup = (typeof FIX_GROUPS)[number];

/**
 * Every field a correction can name, by group: the field catalogue's keys and full_name (a whole-name column,
 * corrected when a spreadsheet apostrophe is removed). Written out whole, "other" too, so that a field added to
 * the catalogue fails fix-groups.test.ts until someone decides its group, rather than landing in "other" unseen.
 * original_event_time is "other": the time of an earlier event a follow-up refers to, not when this one happened.
 */
export const FIX_GROUP_FIELDS: Readonly<Record<FixGroup, readonly string[]>> = {
  email: ['email'],
  phone: ['phone'],
  name: ['first_name', 'last_name', 'full_name'],
  date_of_birth: ['db'],
  address: ['city', 'state', 'zip', 'country'],
  event_time: ['event_time'],
  value: ['value', 'currency'],
  other: [
    // Event
    'event_name',
    'action_source',
    'event_source_url',
    'event_id',
    'opt_out',
    'referrer_url',
    'data_processing_options',
    'data_processing_options_country',
    'data_processing_options_state',
    'customer_segmentation',
    // Customer information that is no fix group's
    'gender',
    'external_id',
    'client_ip_address',
    'client_user_agent',
    'fbc',
    'fbp',
    'subscription_id',
    'fb_login_id',
    'lead_id',
    'anon_id',
    'madid',
    'page_id',
    'page_scoped_user_id',
    'ctwa_clid',
    'ig_account_id',
    'ig_sid',
    // App data
    'advertiser_tracking_enabled',
    'application_tracking_enabled',
    'extinfo',
    'campaign_ids',
    'install_referrer',
    'installer_package',
    'url_schemes',
    'vendor_id',
    'windows_attribution_id',
    // Original event data
    'original_event_name',
    'original_event_time',
    'original_order_id',
    'original_event_id',
    // Standard parameters but value and currency
    'order_id',
    'content_ids',
    'content_type',
    'contents',
    'num_items',
    'price',
    'net_revenue',
    'predicted_ltv',
    'delivery_category',
    'item_number',
    'availability',
    'body_style',
    'checkin_date',
    'custom_city',
    'condition_of_vehicle',
    'custom_country',
    'departing_arrival_date',
    'departing_departure_date',
    'destination_airport',
    'destination_ids',
    'dma_code',
    'drivetrain',
    'exterior_color',
    'fuel_type',
    'hotel_score',
    'interior_color',
    'lead_event_source',
    'lease_end_date',
    'lease_start_date',
    'listing_type',
    'make',
    'mileage_unit',
    'mileage_value',
    'model',
    'neighborhood',
    'num_adults',
    'num_children',
    'num_infants',
    'origin_airport',
    'custom_postal_code',
    'preferred_baths_range',
    'preferred_beds_range',
    'preferred_neighborhoods',
    'preferred_num_stops',
    'preferred_price_range',
    'preferred_star_ratings',
    'product_catalog_id',
    'property_type',
    'custom_region',
    'returning_arrival_date',
    'returning_departure_date',
    'search_string',
    'state_of_vehicle',
    'suggested_destinations',
    'suggested_home_listings',
    'suggested_hotels',
    'suggested_jobs',
    'suggested_local_service_businesses',
    'suggested_location_based_items',
    'suggested_vehicles',
    'transmission',
    'travel_class',
    'travel_end',
    'travel_start',
    'trim',
    'user_bucket',
    'vin',
    'year',
    'ad_type',
    'fb_content',
    'fb_content_id',
    'fb_description',
    'fb_level',
    'fb_max_rating_value',
    'fb_payment_info_available',
    'fb_registration_method',
    'fb_success',
    '_valueToSum',
  ],
};

const OTHER_BIT = 1 << FIX_GROUPS.indexOf('other');
const BIT = new Map<string, number>(
  FIX_GROUPS.flatMap((g, i) => FIX_GROUP_FIELDS[g].map((field) => [field, 1 << i] as const)),
);

/** The group of a corrected field; a field no table knows (none today) is "other". */
export const fixGroupOf = (field: string): FixGroup =>
  FIX_GROUPS[31 - Math.clz32(BIT.get(field) ?? OTHER_BIT)]!;

/**
 * One byte per event: bit i is set when the row had a correction in group i (FIX_GROUPS). A correction of a
 * value that was then dropped (a spreadsheet apostrophe removed from an email that is still no email) fixed
 * nothing that was sent, so `drops` leave their fields out. Callers check `corrections.length` first: most rows
 * have none, and then this is not called at all.
 */
export function fixCode(
  corrections: readonly RowCorrection[],
  drops: readonly Pick<RowIssue, 'field'>[] = [],
): number {
  let code = 0;
  for (const c of corrections) {
    if (drops.length && drops.some((d) => d.field === c.field)) continue;
    code |= BIT.get(c.field) ?? OTHER_BIT;
  }
  return code;
}

/** Whether a fix code has the group (its index in FIX_GROUPS). */
export const hasFixGroup = (code: number, group: number): boolean => (code & (1 << group)) !== 0;
