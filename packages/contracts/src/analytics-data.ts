// Zod-free, so the analytics client on public pages can import it from '/public' (issue 21 limits).
export const ANALYTICS_EVENTS = [
  'landing_page_viewed',
  'demo_viewed',
  'cta_clicked',
  'file_upload_validation_failed',
  'file_upload',
  'file_upload_failed',
  'sign_up',
  'login',
  'automation_signup_attempted',
  'automation_signup_submitted',
  'automation_signup_failed',
  'audit_request_submitted',
  'lead_ai_waitlist_attempted',
  'lead_ai_waitlist_submitted',
  'lead_ai_waitlist_failed',
  'mapping_continued',
  'validation_completed',
  'submission_started',
  'submission_completed',
] as const;
export type AnalyticsEventName = (typeof ANALYTICS_EVENTS)[number];
/**
 * What one anonymous analytics post may carry (issue 21: a flood from one address must stay small). The app's
 * own events have at most three short properties; the web client cuts to these limits before sending.
 */
export const ANALYTICS_LIMITS = {
  eventsPerPost: 20,
  propsPerEvent: 6,
  keyLength: 40,
  textLength: 200,
  pathLength: 200,
} as const;
