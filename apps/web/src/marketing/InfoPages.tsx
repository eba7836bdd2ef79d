import { PUBLIC_PAGES } from '@backsignal/contracts/public';
import { Link } from 'react-router';
import { usePageMeta } from '../lib/page-meta.ts';
import { usePublicConfig } from '../lib/public-config.ts';
import { CtaLink, FeatureCards, Prose, Section, Steps } from './parts.tsx';

export function AboutPage() {
  usePageMeta(PUBLIC_PAGES['/about-us']!);
  const { bookACallUrl } = usePublicConfig();
  return (
    <>
      <Section
        level={1}
        title="About Backsignal"
        intro="We are a small team of marketers and engineers who got tired of ads optimising for the wrong thing."
      >
        <div className="grid gap-8 md:grid-cols-2">
          <p className="text-slate-700">
            Most businesses we work with win their customers offline: on the phone, in the shop, in a sales
            call. Their ad platforms never hear about it, so they keep buying clicks from people who never
            pay. Backsignal closes that loop, with a tool that sends offline conversions to Meta correctly and
            a service that fixes tracking end to end.
          </p>
          <p className="text-slate-700">
            We care about getting the details right: normalising and hashing customer data exactly as Meta
            documents it, never sending a batch twice, and explaining every correction in plain words. Your
            data is stored in the United States and kept no longer than it is useful.
          </p>
        </div>
        <div className="mt-8 flex flex-wrap gap-3">
          <CtaLink to={bookACallUrl} label="Book a Call" position="about" external />
          <CtaLink to="/contact" label="Contact us" position="about" variant="outline" />
        </div>
      </Section>
    </>
  );
}

export function ServicesPage() {
  usePageMeta(PUBLIC_PAGES['/services']!);
  const { bookACallUrl } = usePublicConfig();
  return (
    <>
      <Section
        level={1}
        title="Done-for-you attribution engineering"
        intro="For agencies: attribution engineering is a service, not a SaaS tool. Our engineers set up and maintain the tracking that proves your clients' ads work. We offer it alongside the Backsignal app, the self-serve tool we use ourselves for offline uploads."
      >
        <FeatureCards
          items={[
            {
              title: 'Attribution setup',
              text: 'Call tracking, Conversions API, offline conversion uploads and CRM sync, configured for each client.',
            },
            {
              title: 'Tracking fixes',
              text: 'Broken pixels, duplicate purchases, missing phone leads: found, fixed and documented.',
            },
            {
              title: 'White-label & long-term support',
              text: 'Delivered under your agency’s brand, with monitoring and monthly checks.',
            },
          ]}
        />
      </Section>
      <Section
        title="Pricing, scoped per project"
        tone="slate"
        intro="No seat licences. We quote after a free call, in one of three ways."
      >
        <Steps
          steps={[
            {
              title: 'One-time',
              text: 'A fixed price for a defined setup or fix, handed over with documentation.',
            },
            {
              title: 'Retainer',
              text: 'A monthly fee for ongoing maintenance, monitoring and new client onboarding.',
            },
            {
              title: 'Performance-based',
              text: 'Part of our fee tied to the improvement we deliver, when the numbers allow it.',
            },
          ]}
        />
        <div className="mt-8 flex flex-wrap gap-3">
          <CtaLink to={bookACallUrl} label="Book a Call" position="services" external />
          <CtaLink to="/contact" label="Ask a question" position="services" variant="outline" />
        </div>
      </Section>
      <Section
        title="Rather do it yourself?"
        intro="If what you need is offline conversions sent to Meta from your clients' exports, you do not need the service: the Backsignal app maps, corrects, hashes and sends a CSV in minutes, and it is free during the open beta."
      >
        <div className="flex flex-wrap gap-3">
          <CtaLink to="/signup" label="Start Free Beta" position="services-app" />
          <CtaLink to="/pricing" label="See pricing" position="services-app" variant="outline" />
        </div>
      </Section>
    </>
  );
}

export function TermsPage() {
  usePageMeta(PUBLIC_PAGES['/terms-of-service']!);
  return (
    <Prose>
      <h1>Terms of Service</h1>
      <p className="text-sm text-slate-500">Last updated May 3, 2025</p>
      <p>
        These terms govern your use of Backsignal, a tool for sending offline conversion data from CSV files
        to the Meta Conversions API, and our related services.
      </p>
      <h2>Your account</h2>
      <p>
        You must give accurate information, verify your email address and keep your password secret. You are
        responsible for everything done with your account.
      </p>
      <h2>Your data</h2>
      <p>
        You keep all rights to the files you upload. You confirm you have the right to share the customer data
        in them with Meta for advertising measurement, and that you have given any notices and obtained any
        consents the law requires. We process your files only to provide the service. We retain uploaded data
        for up to one year, then delete it; you can delete files or your whole account at any time.
      </p>
      <h2>Acceptable use</h2>
      <p>
        Do not upload data you are not allowed to process, try to break or overload the service, or use it to
        send misleading events.
      </p>
      <h2>Beta</h2>
      <p>
        The service is free during its open beta and is provided as is. We will announce paid plans before
        they apply to you.
      </p>
      <h2>Liability</h2>
      <p>
        To the extent the law allows, we are not liable for indirect losses, and our total liability is
        limited to the amount you paid us in the last twelve months.
      </p>
      <h2>Contact</h2>
      <p>
        Questions? Use the <Link to="/contact">contact form</Link>.
      </p>
      <p>
        <Link to="/">Back to home</Link>
      </p>
    </Prose>
  );
}

export function PrivacyPage() {
  usePageMeta(PUBLIC_PAGES['/privacy-policy']!);
  // The pixel paragraph appears once the config says a pixel is set (the prerendered page has no config).
  const { marketingPixelId } = usePublicConfig();
  return (
    <Prose>
      <h1>Privacy Policy</h1>
      <p>This policy explains what we collect, why, and what you can do about it.</p>
      <h2>What we collect</h2>
      <p>
        Account details (name, email, company, role), the files you upload and the events prepared from them,
        pixel account details (access tokens are encrypted), form submissions, and basic usage analytics
        collected by our own servers.
      </p>
      <h2>How we use it</h2>
      <p>
        To run the service: validating and normalising your data, hashing customer information with SHA-256
        before it leaves for Meta, sending it to the pixel you choose, and showing you the results. We do not
        sell data.
      </p>
      <h2>Services we use on our pages</h2>
      <p>
        Our forms (contact, waitlists and the audit) are protected by Cloudflare Turnstile, a service of
        Cloudflare, Inc. that tells people from bots. To do that it processes technical data from your
        browser, such as your IP address and browser characteristics, under{' '}
        <a href="https://www.cloudflare.com/privacypolicy/" target="_blank" rel="noopener noreferrer">
          Cloudflare's privacy policy
        </a>
        .
      </p>
      {marketingPixelId && (
        <p data-testid="privacy-meta-pixel">
          Our marketing pages use the Meta Pixel, a service of Meta Platforms, Inc. When you submit the audit
          form, your browser loads Meta's script and reports a Lead event to Meta, with your IP address and
          browser details, so we can measure our ads. See{' '}
          <a href="https://www.facebook.com/privacy/policy/" target="_blank" rel="noopener noreferrer">
            Meta's privacy policy
          </a>
          .
        </p>
      )}
      <h2>Where it is stored</h2>
      <p>Data is stored in the United States.</p>
      <h2>How long we keep it</h2>
      <p>
        Uploaded files and send history are kept for up to one year. Deleting a file or your account deletes
        the data at once.
      </p>
      <h2>Your rights</h2>
      <p>
        You can access, correct or delete your data from your account settings, or ask us through the{' '}
        <Link to="/contact">contact form</Link>.
      </p>
      <p>
        <Link to="/">Back to home</Link>
      </p>
    </Prose>
  );
}
