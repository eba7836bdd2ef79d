// Plain data shared by the public pages and the API; no zod here, so public pages stay small.
export const CONTACT_REASONS = [
  { value: 'question', label: 'General Inquiry' },
  { value: 'account', label: 'My account' },
  { value: 'billing', label: 'Billing' },
  { value: 'bug', label: 'Bug report' },
  { value: 'feedback', label: 'General feedback' },
  { value: 'other', label: 'Other' },
] as const;
export const AUTOMATION_BUSINESS_TYPES = [
  { value: 'HVAC', label: 'HVAC' },
  { value: 'Plumbing', label: 'Plumbing' },
  { value: 'Landscaping', label: 'Landscaping' },
  { value: 'Roofing', label: 'Roofing' },
  { value: 'Cleaning', label: 'Cleaning' },
  { value: 'Electrical', label: 'Electrical' },
  { value: 'GeneralContracting', label: 'General Contracting' },
  { value: 'Other', label: 'Other' },
] as const;
export const AUDIT_BUSINESS_TYPES = [
  { value: 'HVAC', label: 'HVAC' },
  { value: 'Plumbing', label: 'Plumbing' },
  { value: 'Legal', label: 'Legal / Law Firm' },
  { value: 'Landscaping', label: 'Landscaping' },
  { value: 'PestControl', label: 'Pest Control' },
  { value: 'HomeServices', label: 'Other Home Services' },
  { value: 'Medical', label: 'Medical / Dental' },
  { value: 'Other', label: 'Other' },
] as const;

/** Spec §3: the five statements a visitor ticks, in the spec's order, each with the leak key it proves. */
export const LEAK_STATEMENTS = [
  { key: 'callTracking', text: 'I can see which campaigns drive phone calls' },
  { key: 'callToJobTracking', text: 'I know which calls turn into booked jobs' },
  { key: 'revenueReporting', text: 'I can track calls to revenue, not just leads' },
  { key: 'offlineConversions', text: 'My leads are synced back to my ad platforms' },
  { key: 'campaignAttribution', text: 'My reports show which campaigns deliver the highest ROI' },
] as const;
export type LeakKey = (typeof LEAK_STATEMENTS)[number]['key'];
