/** Every public page: prerendered at build time, listed in sitemap.xml, each with its own title and description. */
export const PUBLIC_PAGES: Record<string, { title: string; description: string }> = {
  '/': {
    title: 'Backsignal: send offline conversions to Meta from a CSV',
    description:
      'Upload a CSV of leads, sales or booked jobs and send it to the Meta Conversions API, validated, auto-corrected and hashed exactly as Meta requires.',
  },
  '/agency': {
    title: 'Offline conversions for agencies | Backsignal',
    description:
      'Prove results for every client: send their booked jobs, sales and closed deals to Meta from a CSV, without touching their website or CRM.',
  },
  '/local-services': {
    title: 'Offline conversions for local service businesses | Backsignal',
    description:
      'Tell Meta which leads became booked jobs. Upload your job list from ServiceTitan, Jobber or a spreadsheet and let ads optimise for revenue.',
  },
  '/retail': {
    title: 'In-store sales to Meta | Backsignal',
    description:
      'Send in-store and phone sales to Meta as offline conversions from a POS export, with up to 62 days of history for store events.',
  },
  '/crm-integrations': {
    title: 'CRM to Meta Conversions API without code | Backsignal',
    description:
      'Send closed-won deals from HubSpot, Salesforce, Pipedrive or any CRM export to the Meta Conversions API. No integration project required.',
  },
  '/csv-to-meta': {
    title: 'Upload a CSV to the Meta Conversions API | Backsignal',
    description:
      'The simplest way to send offline conversions from a CSV to Meta: map columns, auto-correct, hash and send in batches.',
  },
  '/about-us': {
    title: 'About us | Backsignal',
    description:
      'Backsignal connects ad spend to real revenue for marketers, agencies and local-service businesses.',
  },
  '/services': {
    title: 'Attribution services for agencies | Backsignal',
    description:
      'Done-for-you attribution engineering for agencies, alongside the self-serve app: setup, tracking fixes, white-label and long-term support, priced per project.',
  },
  '/pricing': {
    title: 'Pricing: free during the open beta | Backsignal',
    description:
      'Backsignal is free during its open beta: every feature, no card. What the beta includes, how paid plans will be announced, and how our done-for-you service is priced.',
  },
  '/automation': {
    title: 'No-code automation course for service businesses | Backsignal',
    description:
      'Join the waitlist for a practical no-code automation course for HVAC, plumbing, landscaping and other service business owners.',
  },
  '/audit': {
    title: 'Free ad tracking audit | Backsignal',
    description:
      "Are you wasting money on ads you can't track? Take the 60-second audit and get your tracking score and fix list by email.",
  },
  '/audit-results': {
    title: 'Your tracking audit results | Backsignal',
    description: 'Your ad tracking score and what to fix first.',
  },
  '/lead-ai': {
    title: 'AI lead replies in under 60 seconds | Backsignal',
    description:
      'Join the waitlist for an AI assistant that replies to every new lead in under 60 seconds. $29 a month, lifetime pricing for early users.',
  },
  '/contact': {
    title: 'Contact us | Backsignal',
    description:
      'Questions about Backsignal, your account, billing or our attribution services? Send us a message.',
  },
  '/terms-of-service': {
    title: 'Terms of Service | Backsignal',
    description: 'The terms for using Backsignal.',
  },
  '/privacy-policy': {
    title: 'Privacy Policy | Backsignal',
    description:
      'How Backsignal handles your data and your customers’ data: stored in the United States, kept up to one year.',
  },
};
export const PUBLIC_PATHS = Object.keys(PUBLIC_PAGES);
