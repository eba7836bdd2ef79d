import { PUBLIC_PAGES } from '@backsignal/contracts/public';
import { usePageMeta } from '../lib/page-meta.ts';
import { HOW_IT_WORKS, type IndustryCopy } from './industry-copy.ts';
import { CtaLink, DemoSection, FeatureCards, FreeBetaBlock, Section, Steps } from './parts.tsx';

/** The shared layout of /agency, /local-services, /retail, /crm-integrations and /csv-to-meta (spec §2). */
export function IndustryPage({ copy }: { copy: IndustryCopy }) {
  usePageMeta(PUBLIC_PAGES[copy.path]!);
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-white px-4 pb-16 pt-20 sm:pt-24">
        <div className="mx-auto max-w-4xl text-center">
          <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">{copy.headline}</h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-600">{copy.subtitle}</p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <CtaLink to="/signup" label="Start Free Beta" position="hero" />
          </div>
        </div>
      </section>
      <Section title={copy.problemTitle} tone="white">
        <ul className="grid gap-4 md:grid-cols-2">
          {copy.problems.map((p) => (
            <li
              key={p}
              className="flex gap-3 rounded-xl border border-red-100 bg-red-50/50 p-4 text-slate-700"
            >
              <span aria-hidden className="font-bold text-red-600">
                ✕
              </span>
              {p}
            </li>
          ))}
        </ul>
        <div className="mt-8">
          <CtaLink to="/signup" label="Fix it with Backsignal" position="problem" variant="outline" />
        </div>
      </Section>
      <Section title="How It Works" tone="slate">
        <Steps steps={HOW_IT_WORKS} />
      </Section>
      <Section title="Built for messy real-world exports">
        <FeatureCards items={copy.features} />
      </Section>
      <DemoSection />
      <FreeBetaBlock />
    </>
  );
}
