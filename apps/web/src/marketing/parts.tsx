import { useEffect, useRef, type ReactNode } from 'react';
import { Link } from 'react-router';
import { track } from '../lib/track.ts';

export function CtaLink({
  to,
  label,
  position,
  variant = 'primary',
  external,
}: {
  to: string;
  label: string;
  position: string;
  variant?: 'primary' | 'light' | 'outline' | 'outline-light';
  external?: boolean;
}) {
  const cls = {
    primary: 'bg-brand-600 text-white hover:bg-brand-700',
    light: 'bg-white text-brand-700 hover:bg-brand-50',
    outline: 'bg-transparent text-slate-900 ring-1 ring-inset ring-slate-300 hover:bg-slate-50',
    // For dark backgrounds: white text and ring.
    'outline-light': 'bg-transparent text-white ring-1 ring-inset ring-white/70 hover:bg-white/10',
  }[variant];
  const props = {
    className: `inline-flex items-center justify-center whitespace-nowrap rounded-lg px-5 py-3 text-sm font-semibold shadow-sm ${cls}`,
    onClick: () => track('cta_clicked', { label, position }),
  };
  return external ? (
    <a href={to} target="_blank" rel="noopener noreferrer" {...props}>
      {label}
    </a>
  ) : (
    <Link to={to} {...props}>
      {label}
    </Link>
  );
}

export function Section({
  id,
  title,
  intro,
  children,
  tone = 'white',
  level = 2,
}: {
  id?: string;
  title?: string;
  intro?: ReactNode;
  children: ReactNode;
  tone?: 'white' | 'slate' | 'brand';
  level?: 1 | 2;
}) {
  const Heading = level === 1 ? 'h1' : 'h2';
  const bg = { white: 'bg-white', slate: 'bg-slate-50', brand: 'bg-brand-900 text-white' }[tone];
  return (
    <section id={id} className={`${bg} px-4 py-16 sm:py-20`}>
      <div className="mx-auto max-w-6xl">
        {title && (
          <Heading
            className={`${level === 1 ? 'text-4xl' : 'text-3xl'} font-bold tracking-tight ${tone === 'brand' ? 'text-white' : 'text-slate-900'}`}
          >
            {title}
          </Heading>
        )}
        {intro && (
          <p className={`mt-3 max-w-3xl text-lg ${tone === 'brand' ? 'text-brand-100' : 'text-slate-600'}`}>
            {intro}
          </p>
        )}
        <div className={title || intro ? 'mt-10' : ''}>{children}</div>
      </div>
    </section>
  );
}

export function Steps({ steps }: { steps: { title: string; text: string }[] }) {
  return (
    <ol className="grid gap-6 md:grid-cols-3">
      {steps.map((s, i) => (
        <li key={s.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <span
            className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-600 text-sm font-bold text-white"
            aria-hidden
          >
            {i + 1}
          </span>
          <h3 className="mt-4 text-lg font-semibold text-slate-900">{s.title}</h3>
          <p className="mt-2 text-slate-600">{s.text}</p>
        </li>
      ))}
    </ol>
  );
}

export function FeatureCards({ items }: { items: { title: string; text: string }[] }) {
  return (
    <div className="grid gap-6 md:grid-cols-3">
      {items.map((f) => (
        <div key={f.title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h3 className="text-lg font-semibold text-slate-900">{f.title}</h3>
          <p className="mt-2 text-slate-600">{f.text}</p>
        </div>
      ))}
    </div>
  );
}

/** The product flow, animated in SVG and CSS (no video to download); demo_viewed fires once at 50% visibility. */
export function DemoSection({ title = 'See it in action' }: { title?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.intersectionRatio >= 0.5)) {
          track('demo_viewed');
          io.disconnect();
        }
      },
      { threshold: 0.5 },
    );
    io.observe(el);
    return () => io.disconnect();
  }, []);
  const steps = ['Upload CSV', 'Map columns', 'Validate & fix', 'Send to Meta'];
  return (
    <Section
      title={title}
      intro="A 2,000-row CRM export goes from spreadsheet to Meta in about a minute."
      tone="slate"
    >
      <div
        ref={ref}
        className="overflow-hidden rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
        role="img"
        aria-label="Animation of the Backsignal flow: upload a CSV, map columns, validate and fix, send to Meta"
      >
        <div className="grid gap-4 sm:grid-cols-4">
          {steps.map((s, i) => (
            <div
              key={s}
              className="demo-step rounded-xl border border-slate-200 p-4"
              style={{ animationDelay: `${i * 0.8}s` }}
            >
              <p className="text-xs font-semibold uppercase tracking-wide text-slate-500">Step {i + 1}</p>
              <p className="mt-1 font-semibold text-slate-900">{s}</p>
              <div className="mt-3 h-2 overflow-hidden rounded-full bg-slate-100">
                <div
                  className="demo-bar h-full rounded-full bg-brand-600"
                  style={{ animationDelay: `${i * 0.8}s` }}
                />
              </div>
            </div>
          ))}
        </div>
        <pre className="mt-6 overflow-x-auto rounded-xl bg-slate-900 p-4 text-xs leading-relaxed text-slate-100">
          {`row 14  phone  (650) 555-1212  →  16505551212   ✓ added country code +1
row 15  time   1763575200000   →  1763575200    ✓ milliseconds → seconds
row 16  dob    1990-01-31      →  19900131      ✓ formatted, then SHA-256
row 17  email  mailto:ann@x.co →  ann@x.co      ✓ cleaned, then SHA-256
batch 1 of 20  · 100 events  · received by Meta ✓`}
        </pre>
      </div>
    </Section>
  );
}

export function FreeBetaBlock({ position = 'closing' }: { position?: string }) {
  return (
    <Section tone="brand">
      <div className="flex flex-col items-start gap-6 md:flex-row md:items-center md:justify-between">
        <div>
          <h2 className="text-3xl font-bold tracking-tight text-white">Free During Open Beta</h2>
          <p className="mt-2 max-w-2xl text-brand-100">
            Every feature, no card. Paid plans come later, and you will hear about them first.{' '}
            <Link to="/pricing" className="font-semibold text-white underline">
              What the beta includes
            </Link>
          </p>
        </div>
        <CtaLink to="/signup" label="Start Free Beta" position={position} variant="light" />
      </div>
    </Section>
  );
}

export function Prose({ children }: { children: ReactNode }) {
  return (
    <div className="prose-legal mx-auto max-w-3xl space-y-4 px-4 py-16 text-slate-700 [&_h1]:text-3xl [&_h1]:font-bold [&_h1]:text-slate-900 [&_h2]:mt-8 [&_h2]:text-xl [&_h2]:font-semibold [&_h2]:text-slate-900 [&_a]:text-brand-700 [&_a]:underline">
      {children}
    </div>
  );
}
