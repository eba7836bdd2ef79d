import { PUBLIC_PAGES } from '@backsignal/contracts/public';
import { Link } from 'react-router';
import { usePageMeta } from '../lib/page-meta.ts';
import { usePublicConfig } from '../lib/public-config.ts';
import { CtaLink, Section } from './parts.tsx';

const count = (n: number) => n.toLocaleString('en-US');
/** 1024 MB reads as 1 GB; anything else as it is set. */
const size = (mb: number) => (mb >= 1024 && mb % 1024 === 0 ? `${mb / 1024} GB` : `${count(mb)} MB`);

/**
 * Spec §1: the app is free during the open beta and paid plans are announced for later, without prices or plan
 * limits; the done-for-you service is priced per project. So this page says what is free now, the beta's real
 * limits (the server's settings, from /api/config), how paid plans will be introduced, and where the service's
 * pricing comes from.
 */
export function PricingPage() {
  usePageMeta(PUBLIC_PAGES['/pricing']!);
  const { maxUploadMb, quotaUploadMbPerDay, quotaRowsPerDay, retentionDays, bookACallUrl } =
    usePublicConfig();
  const kept = retentionDays === 365 ? 'one year' : `${count(retentionDays)} days`;
  return (
    <>
      <Section
        level={1}
        title="Pricing"
        intro="The Backsignal app is free during its open beta: every feature, no card. Paid plans come later, announced before they apply to you."
      >
        <div className="grid gap-6 lg:grid-cols-2">
          <div className="rounded-2xl border-2 border-brand-600 bg-white p-6 shadow-sm sm:p-8">
            <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Self-serve app</p>
            <h2 className="mt-2 text-2xl font-bold text-slate-900">Free during the open beta</h2>
            <p className="mt-1 text-4xl font-bold tracking-tight text-slate-900">
              $0 <span className="text-base font-medium text-slate-600">while the beta lasts</span>
            </p>
            <ul className="mt-6 space-y-2 text-slate-700">
              {[
                'Upload CSV exports, with column suggestions for Shopify, HubSpot, Salesforce, Stripe and more',
                'Validation and auto-correction of every row, with a report of what changed',
                'Normalising and SHA-256 hashing exactly as Meta requires',
                'Sending to the Meta Conversions API in batches, with a summary of every refusal',
                'Saved mapping templates, pixel accounts and scheduled sources (CSV URL, SFTP, S3)',
              ].map((f) => (
                <li key={f} className="flex gap-2">
                  <span aria-hidden className="text-brand-600">
                    ✓
                  </span>
                  {f}
                </li>
              ))}
            </ul>
            <div className="mt-8 flex flex-wrap gap-3">
              <CtaLink to="/signup" label="Start Free Beta" position="pricing" />
              <CtaLink to="/csv-to-meta" label="See how it works" position="pricing" variant="outline" />
            </div>
          </div>
          <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
            <p className="text-sm font-semibold uppercase tracking-wide text-slate-600">Done for you</p>
            <h2 className="mt-2 text-2xl font-bold text-slate-900">Attribution engineering service</h2>
            <p className="mt-1 text-lg font-semibold text-slate-900">Priced per project</p>
            <p className="mt-4 text-slate-700">
              For agencies that would rather hand the work over: our engineers set up and maintain attribution
              for your clients. We quote after a free call, in one of three ways:
            </p>
            <ul className="mt-4 space-y-2 text-slate-700">
              <li>
                <strong className="font-semibold text-slate-900">One-time</strong>: a fixed price for a
                defined setup or fix.
              </li>
              <li>
                <strong className="font-semibold text-slate-900">Retainer</strong>: a monthly fee for ongoing
                maintenance and monitoring.
              </li>
              <li>
                <strong className="font-semibold text-slate-900">Performance-based</strong>: part of the fee
                tied to the improvement we deliver.
              </li>
            </ul>
            <div className="mt-8 flex flex-wrap gap-3">
              <CtaLink to={bookACallUrl} label="Book a Call" position="pricing" external />
              <CtaLink to="/services" label="About the service" position="pricing" variant="outline" />
            </div>
          </div>
        </div>
      </Section>

      <Section
        title="What the beta includes"
        tone="slate"
        intro="Every feature, within limits that keep the service fast for everyone:"
      >
        <dl className="grid gap-6 md:grid-cols-3">
          {[
            ['Per file', size(maxUploadMb), 'The largest CSV you can upload at once.'],
            [
              'Per account, in any 24 hours',
              `${size(quotaUploadMbPerDay)} uploaded`,
              `and ${count(quotaRowsPerDay)} rows each validated, prepared and sent. A refusal says when there is room again.`,
            ],
            [
              'Your data',
              `Kept up to ${kept}`,
              'Your uploads and send history, deleted after that. You can delete a file or your whole account at any time.',
            ],
          ].map(([term, value, text]) => (
            <div key={term} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
              <dt className="text-sm font-semibold uppercase tracking-wide text-slate-600">{term}</dt>
              <dd className="mt-2">
                <span className="block text-2xl font-bold text-slate-900">{value}</span>
                <span className="mt-1 block text-slate-600">{text}</span>
              </dd>
            </div>
          ))}
        </dl>
      </Section>

      <Section title="When paid plans come">
        <div className="grid gap-8 md:grid-cols-2">
          <p className="text-slate-700">
            The beta is free, and we never ask for a card. Paid plans will follow once the beta ends; their
            prices and limits are not set yet. We will announce them by email and on this page before they
            apply to you, so you have notice to decide, and nothing you use becomes paid without it.
          </p>
          <p className="text-slate-700">
            Questions about the beta, its limits or your account?{' '}
            <Link to="/contact" className="font-semibold text-brand-700 underline">
              Contact us
            </Link>
            , we answer within one business day. Or try the{' '}
            <Link to="/audit" className="font-semibold text-brand-700 underline">
              free ad tracking audit
            </Link>{' '}
            to see where your conversions go missing.
          </p>
        </div>
        <div className="mt-8 flex flex-wrap gap-3">
          <CtaLink to="/signup" label="Start Free Beta" position="pricing-closing" />
          <CtaLink to="/contact" label="Contact us" position="pricing-closing" variant="outline" />
        </div>
      </Section>
    </>
  );
}
