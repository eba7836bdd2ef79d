import { PUBLIC_PAGES } from '@backsignal/contracts/public';
import { useEffect, useRef, useState } from 'react';
import { Navigate } from 'react-router';
import { usePageMeta } from '../lib/page-meta.ts';
import { usePublicConfig, usePublicConfigState } from '../lib/public-config.ts';
import { useSession } from '../lib/session.tsx';
import { track } from '../lib/track.ts';
import { HOW_IT_WORKS } from './industry-copy.ts';
import { CtaLink, DemoSection, FeatureCards, FreeBetaBlock, Section, Steps } from './parts.tsx';

const VARIANT_KEY = 'backsignal:landing-variant';
type Variant = 'agency' | 'csv';

/**
 * The configured variant, or a random pick kept per browser (spec §2 route '/'). Nothing is picked until the
 * server's config has arrived: the fallback says 'random', and picking on it would show (and record) one
 * variant, then switch to the configured one. A variant fixed by config is never stored.
 */
function useVariant(): Variant | null {
  const { config, settled } = usePublicConfigState();
  const { landingVariant } = config;
  const [picked, setPicked] = useState<Variant | null>(null);
  useEffect(() => {
    if (!settled) return;
    if (landingVariant !== 'random') return setPicked(landingVariant);
    let v = localStorage.getItem(VARIANT_KEY) as Variant | null;
    if (v !== 'agency' && v !== 'csv') {
      v = Math.random() < 0.5 ? 'agency' : 'csv';
      localStorage.setItem(VARIANT_KEY, v);
    }
    setPicked(v);
  }, [settled, landingVariant]);
  return picked;
}

export function LandingPage() {
  usePageMeta(PUBLIC_PAGES['/']!);
  const { status } = useSession();
  const variant = useVariant();
  // One landing view per visit, with the variant actually shown.
  const tracked = useRef(false);
  useEffect(() => {
    if (status !== 'loggedOut' || !variant || tracked.current) return;
    tracked.current = true;
    track('landing_page_viewed', { variant });
  }, [status, variant]);
  if (status === 'loggedIn') return <Navigate to="/dashboard" replace />;
  // Until the variant is known the prerendered (CSV) landing stays as it is.
  return variant === 'agency' ? <AgencyLanding /> : <CsvLanding />;
}

function CsvLanding() {
  return (
    <>
      <div className="bg-brand-600 px-4 py-2 text-center text-sm font-medium text-white">
        Free during open beta: every feature, no card required.
      </div>
      <section
        data-variant="csv"
        className="bg-gradient-to-b from-brand-50 to-white px-4 pb-16 pt-20 sm:pt-24"
      >
        <div className="mx-auto max-w-4xl text-center">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">
            Offline conversions for Meta ads
          </p>
          <h1 className="mt-3 text-4xl font-bold tracking-tight text-slate-900 sm:text-6xl">
            Your sales happen offline. Tell Meta about them.
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-slate-600">
            Upload a CSV of booked jobs, store sales or closed deals. Backsignal maps it, fixes it, hashes it
            exactly as Meta requires, and sends it, so your ads optimise for revenue instead of clicks.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <CtaLink to="/signup" label="Start Free Beta" position="hero" />
            <CtaLink to="/csv-to-meta" label="See how it works" position="hero" variant="outline" />
          </div>
        </div>
      </section>
      <Section
        title="Why your offline uploads fail"
        intro="Meta rejects a whole batch for one bad row, and most tools never tell you which."
      >
        <FeatureCards
          items={[
            {
              title: 'Wrong event times',
              text: 'Milliseconds instead of seconds, the wrong time zone, or older than Meta’s 7-day window. We convert and warn.',
            },
            {
              title: 'Unmatchable customers',
              text: 'Phones without country codes and birthdays hashed with dashes match nobody. We normalise before hashing.',
            },
            {
              title: 'Opaque errors',
              text: 'We isolate the bad rows, deliver the rest, and explain each refusal in plain words with the fix.',
            },
          ]}
        />
        <div className="mt-8">
          <CtaLink to="/signup" label="Try it on your own export" position="problem" variant="outline" />
        </div>
      </Section>
      <Section title="How It Works" tone="slate">
        <Steps steps={HOW_IT_WORKS} />
      </Section>
      <DemoSection />
      <FreeBetaBlock />
    </>
  );
}

function AgencyLanding() {
  const { bookACallUrl } = usePublicConfig();
  return (
    <>
      <section
        data-variant="agency"
        className="bg-gradient-to-b from-slate-900 to-brand-900 px-4 pb-20 pt-20 text-white sm:pt-28"
      >
        <div className="mx-auto max-w-4xl text-center">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-100">
            Attribution engineering for agencies
          </p>
          <h1 className="mt-3 text-4xl font-bold tracking-tight sm:text-6xl">
            Your clients’ ads work better than their reports say.
          </h1>
          <p className="mx-auto mt-6 max-w-2xl text-lg text-brand-100">
            We set up and maintain the tracking that connects ad spend to booked jobs and revenue: call
            tracking, offline conversions, CRM sync. Done for you, white-label if you like.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <CtaLink to={bookACallUrl} label="Book a Call" position="hero" variant="light" external />
            <CtaLink to="/services" label="See our services" position="hero" variant="outline-light" />
          </div>
        </div>
      </section>
      <Section
        title="What we fix"
        intro="A service, not another SaaS login. We do the work; you keep the client relationship."
      >
        <FeatureCards
          items={[
            {
              title: 'Attribution setup',
              text: 'Call tracking, form tracking and the Conversions API, wired so every lead has a source.',
            },
            {
              title: 'Tracking fixes',
              text: 'We audit broken pixels, duplicate events and lost offline sales, then fix them.',
            },
            {
              title: 'White-label and long-term support',
              text: 'Our work under your brand, with monitoring so tracking never silently breaks again.',
            },
          ]}
        />
        <div className="mt-8">
          <CtaLink to="/audit" label="Get a free tracking audit" position="problem" variant="outline" />
        </div>
      </Section>
      <Section title="How It Works" tone="slate">
        <Steps
          steps={[
            {
              title: 'Free audit call',
              text: 'We review your clients’ tracking and show where conversions go missing.',
            },
            {
              title: 'Scoped proposal',
              text: 'One-time setup, a monthly retainer, or performance-based: priced per project.',
            },
            {
              title: 'Done for you',
              text: 'We implement, document and monitor, and report results you can show clients.',
            },
          ]}
        />
      </Section>
      <DemoSection title="The tool we use for offline uploads" />
      <FreeBetaBlock />
    </>
  );
}
