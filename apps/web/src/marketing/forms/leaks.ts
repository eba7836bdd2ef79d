import type { LeakKey } from '@backsignal/contracts/public';

export interface LeakCopy {
  title: string;
  fixed: { summary: string; tools: string };
  missing: { summary: string; impact: string; tools: string; learnMore: { label: string; href: string }[] };
}

/** The five tracking leaks of the audit (spec §3), each as 'have it' and 'missing' copy. */
export const LEAKS: Record<LeakKey, LeakCopy> = {
  callTracking: {
    title: 'Call tracking by campaign',
    fixed: {
      summary: 'You can see which campaigns make the phone ring.',
      tools: 'Dynamic number insertion in CallRail, CallTrackingMetrics or WhatConverts.',
    },
    missing: {
      summary: 'Phone calls arrive without a source, so your best campaigns look like your worst.',
      impact:
        'Over 70% of phone leads go unattributed without call tracking; budget follows form fills instead of calls.',
      tools: 'A call tracking tool with a number per campaign and keyword-level source data.',
      learnMore: [
        {
          label: 'Google: call conversion tracking',
          href: 'https://support.google.com/google-ads/answer/6095882',
        },
      ],
    },
  },
  callToJobTracking: {
    title: 'Calls to booked jobs',
    fixed: {
      summary: 'You know which calls became booked jobs.',
      tools: 'Call outcomes tagged in your CRM or call tracking tool.',
    },
    missing: {
      summary: 'A call is counted the same whether it booked a $9,000 job or asked for directions.',
      impact: 'Campaigns that bring tire-kickers look as good as those that bring buyers.',
      tools: 'Outcome tagging in ServiceTitan, Jobber, HubSpot or your call tracker.',
      learnMore: [
        { label: 'HubSpot: lead status', href: 'https://knowledge.hubspot.com/records/set-lead-status' },
      ],
    },
  },
  revenueReporting: {
    title: 'Revenue per lead',
    fixed: {
      summary: 'You can follow calls all the way to revenue.',
      tools: 'Job values recorded against each lead in your CRM.',
    },
    missing: {
      summary: 'You count leads, not money, so you cannot tell a profitable campaign from an expensive one.',
      impact: 'Cost per lead can look great while cost per booked job climbs.',
      tools: 'Job or invoice value stored on the lead record.',
      learnMore: [
        {
          label: 'Meta: offline conversions',
          href: 'https://www.facebook.com/business/help/1782327938668950',
        },
      ],
    },
  },
  offlineConversions: {
    title: 'Leads synced back to ad platforms',
    fixed: {
      summary: 'Your ad platforms learn which leads turned into customers.',
      tools: 'Offline conversion uploads or a CRM integration (Backsignal does it from a CSV).',
    },
    missing: {
      summary: 'Meta and Google only see the form fill, so their algorithms chase more form fills.',
      impact: 'Syncing booked jobs back can improve cost per booking by up to 30%.',
      tools: 'Meta Conversions API offline events and Google offline conversion imports.',
      learnMore: [
        {
          label: 'Meta: Conversions API',
          href: 'https://developers.facebook.com/docs/marketing-api/conversions-api',
        },
      ],
    },
  },
  campaignAttribution: {
    title: 'ROI by campaign',
    fixed: {
      summary: 'Your reports show which campaigns earn the most per dollar.',
      tools: 'A dashboard joining ad spend with booked revenue.',
    },
    missing: {
      summary: 'Budget decisions are made on clicks and gut feeling.',
      impact: 'Money keeps flowing to campaigns that never pay back.',
      tools: 'Looker Studio or your CRM’s reporting, fed with spend and revenue per campaign.',
      learnMore: [{ label: 'Google: Looker Studio', href: 'https://lookerstudio.google.com' }],
    },
  },
};

export const AUDIT_FAQ = [
  {
    q: 'How long does the audit take?',
    a: 'The form takes about 60 seconds. Your score and the fixes arrive in your inbox right away.',
  },
  {
    q: 'Is it really free?',
    a: 'Yes. No card, no obligation. If you want help with the fixes, you can book a call.',
  },
  {
    q: 'Do you need access to my ad accounts?',
    a: 'No. The audit is based on your answers; we only ask for access if you hire us later.',
  },
  {
    q: 'Who is it for?',
    a: 'Service businesses that get leads by phone and forms: home services, legal, medical and dental, and the agencies that run their ads.',
  },
  {
    q: 'What happens after I get my score?',
    a: 'Fix the gaps yourself with the steps we send, or talk to us about doing it for you.',
  },
];
