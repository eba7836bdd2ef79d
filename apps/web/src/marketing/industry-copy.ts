export interface IndustryCopy {
  path: string;
  headline: string;
  subtitle: string;
  problemTitle: string;
  problems: [string, string, string, string];
  features: { title: string; text: string }[];
}

const steps = [
  {
    title: 'Upload your CSV',
    text: 'Export leads, sales or closed deals from any CRM, POS or spreadsheet and drop the file in.',
  },
  {
    title: 'Map your fields',
    text: 'We suggest which column is the email, phone, date and value. You confirm, or save it as a template for next time.',
  },
  {
    title: 'Submit your events',
    text: 'Every row is checked, corrected, hashed and sent to your pixel in batches, with a clear report of what happened.',
  },
];
export const HOW_IT_WORKS = steps;

export const INDUSTRY_PAGES: Record<string, IndustryCopy> = {
  agency: {
    path: '/agency',
    headline: 'Show clients the sales your ads actually drive',
    subtitle:
      'Upload each client’s CRM export, and Backsignal sends the closed deals to their Meta pixel, normalised and hashed the way Meta requires. No developer, no Zapier chain.',
    problemTitle: 'Why client reporting stalls at “leads”',
    problems: [
      'Meta optimises for form fills because that is all it is told about.',
      'Client CRMs are messy: phones without country codes, dates in three formats.',
      'One bad row makes Meta reject a whole upload, and the error says nothing useful.',
      'Every client needs a different mapping, rebuilt by hand every month.',
    ],
    features: [
      {
        title: 'Templates per client',
        text: 'Save a column mapping once per client export and apply it to next month’s file in one click.',
      },
      {
        title: 'Bad rows isolated',
        text: 'If Meta rejects a batch, we split it, deliver the good rows and hand you the few bad ones with the reason.',
      },
      {
        title: 'Proof in plain words',
        text: 'A per-batch summary shows what was sent, what Meta accepted, and what to fix.',
      },
    ],
  },
  'local-services': {
    path: '/local-services',
    headline: 'Get more booked jobs, not just more calls',
    subtitle:
      'Your ads see clicks and form fills. Your CRM knows which ones turned into paid jobs. Backsignal connects the two from a simple CSV export.',
    problemTitle: 'Where local ad budgets leak',
    problems: [
      'Over 70% of phone leads never get tied back to the ad that produced them.',
      'Meta keeps finding people who call for quotes, not people who book.',
      'Your office exports jobs to spreadsheets, but nothing sends them back to Meta.',
      'Tracking setups from agencies break quietly, and nobody notices for months.',
    ],
    features: [
      {
        title: 'Phones fixed automatically',
        text: 'Numbers without a country code get one, because Meta cannot match them otherwise.',
      },
      {
        title: 'Dates read right',
        text: 'Your time zone, US or European day order, Excel dates: we convert them all to what Meta expects.',
      },
      {
        title: 'Only new jobs sent',
        text: 'Upload the same export twice and we skip the jobs Meta already received.',
      },
    ],
  },
  retail: {
    path: '/retail',
    headline: 'Count the sales that happen in your store',
    subtitle:
      'Your Meta ads bring people through the door, but the sale happens at the register. Send POS exports to Meta and let it learn who actually buys.',
    problemTitle: 'What your ads miss today',
    problems: [
      'Store sales never reach Meta, so campaigns look worse than they are.',
      'POS exports mix currencies, amounts like “1.234,56” and missing emails.',
      'Meta’s time windows differ for store and online events, and old rows get rejected.',
      'Repeat uploads double-count purchases without deduplication.',
    ],
    features: [
      {
        title: 'Store-aware time windows',
        text: 'physical_store events may be up to 62 days old; others 7. We warn you before events expire.',
      },
      {
        title: 'Amounts and currencies parsed',
        text: '“$1,200.00”, “1.234,56 €” and “1 234,56” all become the numbers Meta needs.',
      },
      {
        title: 'Stable event ids',
        text: 'Each sale gets the same event id every time, so Meta never counts it twice.',
      },
    ],
  },
  'crm-integrations': {
    path: '/crm-integrations',
    headline: 'Your CRM’s closed deals, in Meta, this afternoon',
    subtitle:
      'Skip the integration project. Export closed-won deals as CSV, map the columns once, and Backsignal sends them to the Conversions API correctly hashed.',
    problemTitle: 'Why CRM-to-Meta projects drag on',
    problems: [
      'Native connectors cover a few CRMs and break on custom fields.',
      'Developers have to learn Meta’s hashing and normalisation rules first.',
      'Dates of birth, states and countries each need their own format.',
      'When something fails, nobody can tell which record was the problem.',
    ],
    features: [
      {
        title: 'Any CRM, any export',
        text: 'If it makes a CSV, it works: UTF-8, Excel’s Windows encoding, commas or semicolons.',
      },
      {
        title: 'Every field normalised',
        text: 'Emails, names, states, zips and birthdays formatted and SHA-256 hashed per Meta’s rules.',
      },
      {
        title: 'Failed rows to download',
        text: 'Rows Meta refuses come back as a CSV with the reason beside each one.',
      },
    ],
  },
  'csv-to-meta': {
    path: '/csv-to-meta',
    headline: 'From CSV to Meta Conversions API in three steps',
    subtitle:
      'Backsignal checks every row, fixes what it safely can, hashes customer data exactly as Meta requires, and tells you plainly what it changed.',
    problemTitle: 'The mistakes that sink offline uploads',
    problems: [
      'Event times in milliseconds, in the wrong time zone, or older than 7 days.',
      'Phones without a country code and birthdays hashed with their dashes.',
      'Values hashed twice, or customer data sent without hashing.',
      'A whole batch rejected for one bad row, with an error nobody understands.',
    ],
    features: [
      {
        title: 'Auto-correct, with receipts',
        text: 'Every correction is listed per row, and the full report downloads as CSV.',
      },
      {
        title: 'Match quality up front',
        text: 'See which identifiers your file has and how well Meta can match it, before you send.',
      },
      {
        title: 'Safe to close the tab',
        text: 'Sending runs on our servers, resumes after interruptions, and never sends a batch twice.',
      },
    ],
  },
};
