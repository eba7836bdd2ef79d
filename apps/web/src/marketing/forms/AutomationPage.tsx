import { PUBLIC_PAGES } from '@backsignal/contracts/public';
import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { AUTOMATION_BUSINESS_TYPES } from '@backsignal/contracts/public';
import { Button } from '../../components/ui/Button.tsx';
import { RequiredNote, SelectField, TextField } from '../../components/ui/Field.tsx';
import { api } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { track } from '../../lib/track.ts';
import { Captcha } from './Captcha.tsx';
import { ReadyForm } from './ReadyForm.tsx';

export const HEADLINES = [
  'Stop answering the same calls all day',
  'Your business, running while you are on the job',
  'Automate the busywork, keep the customers',
  'Quotes, reminders and follow-ups that send themselves',
  'Spend evenings with family, not invoices',
  'Never lose a lead to a missed call again',
  'Run a tighter shop without hiring an office manager',
];
export const SUBTEXTS = [
  'A practical course for HVAC, plumbing, landscaping and other service owners: no code, just tools you already use.',
  'Learn to connect your forms, calendar, texts and invoices in a weekend, step by step.',
  'Build the automations that save service businesses ten hours a week.',
  'From first call to paid invoice: automate each step without a developer.',
  'Real workflows from real service businesses, ready to copy.',
  'Short lessons, done-for-you templates, and a community of owners doing the same.',
  'Join the waitlist and get the first module free when it opens.',
];
const VARIANT_KEY = 'backsignal:automation-variant';

/** Spec §2: a headline and a subtext each picked at random from 7, kept in local storage. */
export function useAutomationVariant(): { h: number; s: number } | null {
  // Picked after mount: the prerendered HTML has no storage to read, and hydration must match it.
  const [v, setV] = useState<{ h: number; s: number } | null>(null);
  useEffect(() => {
    try {
      const saved = JSON.parse(localStorage.getItem(VARIANT_KEY) ?? 'null') as {
        h: number;
        s: number;
      } | null;
      if (saved && saved.h >= 0 && saved.h < 7 && saved.s >= 0 && saved.s < 7) return setV(saved);
    } catch {
      /* a broken value is replaced below */
    }
    const fresh = { h: Math.floor(Math.random() * 7), s: Math.floor(Math.random() * 7) };
    localStorage.setItem(VARIANT_KEY, JSON.stringify(fresh));
    setV(fresh);
  }, []);
  return v;
}

const SECTIONS = ['learn-more', 'product', 'included', 'how-it-works', 'join'];
function NextButton({ to }: { to: string }) {
  return (
    <button
      type="button"
      onClick={() => {
        const section = document.getElementById(to);
        section?.scrollIntoView({ behavior: 'smooth' });
        // Keyboard and screen-reader users continue from the next section's heading, not from this button.
        section?.querySelector<HTMLElement>('h1, h2')?.focus({ preventScroll: true });
      }}
      className="mt-10 rounded-full border border-current px-5 py-2 text-sm font-semibold opacity-80 hover:opacity-100"
    >
      Next ↓
    </button>
  );
}

export function AutomationPage() {
  usePageMeta(PUBLIC_PAGES['/automation']!);
  const v = useAutomationVariant() ?? { h: 0, s: 0 };
  const empty = { name: '', email: '', businessType: '' };
  const [form, setForm] = useState(empty);
  const [token, setToken] = useState('');
  const [resetKey, setResetKey] = useState(0);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!token) return void toast.error('Please complete the captcha.');
    track('automation_signup_attempted');
    setBusy(true);
    try {
      const res = await api<{ message?: string }>('/api/automation-waitlist', {
        method: 'POST',
        body: { ...form, captchaToken: token, headlineVariant: v.h, subtextVariant: v.s },
        credentials: false,
      });
      toast.success(res.message ?? "You've been added to the waitlist!");
      track('automation_signup_submitted', { headline: v.h, subtext: v.s });
      setForm(empty);
      setResetKey((k) => k + 1);
    } catch (err) {
      const msg = errorMessage(err, 'Failed to send message.', true);
      track('automation_signup_failed', { error_message: msg });
      toast.error(msg);
      // The server accepts a captcha token once, even when the request then fails: a retry needs a fresh one.
      setResetKey((k) => k + 1);
    } finally {
      setBusy(false);
    }
  };

  const screen = 'flex min-h-[calc(100vh-4rem)] flex-col items-center justify-center px-4 py-16 text-center';
  return (
    <div>
      <section
        id="learn-more"
        className={`${screen} bg-gradient-to-b from-brand-900 to-slate-900 text-white`}
      >
        <h1 data-testid="headline" className="max-w-3xl text-4xl font-bold tracking-tight sm:text-6xl">
          {HEADLINES[v.h]}
        </h1>
        <p data-testid="subtext" className="mt-6 max-w-2xl text-lg text-brand-100">
          {SUBTEXTS[v.s]}
        </p>
        <NextButton to={SECTIONS[1]!} />
      </section>
      <section id="product" className={`${screen} bg-white`}>
        <h2 tabIndex={-1} className="text-3xl font-bold text-slate-900 focus:outline-none">
          Before and after
        </h2>
        <div className="mt-8 grid max-w-4xl gap-6 text-left md:grid-cols-2">
          <ul className="space-y-2 rounded-2xl bg-red-50 p-6 text-slate-700">
            <li className="font-semibold text-red-800">Before</li>
            <li>✕ Missed calls while you are on a roof</li>
            <li>✕ Quotes typed up at 10 pm</li>
            <li>✕ Chasing unpaid invoices by hand</li>
          </ul>
          <ul className="space-y-2 rounded-2xl bg-emerald-50 p-6 text-slate-700">
            <li className="font-semibold text-emerald-800">After</li>
            <li>✓ Every caller gets a text back in a minute</li>
            <li>✓ Quotes built from a form, sent automatically</li>
            <li>✓ Reminders that get invoices paid</li>
          </ul>
        </div>
        <NextButton to={SECTIONS[2]!} />
      </section>
      <section id="included" className={`${screen} bg-slate-50`}>
        <h2 tabIndex={-1} className="text-3xl font-bold text-slate-900 focus:outline-none">
          What's included
        </h2>
        <ul className="mt-8 grid max-w-4xl gap-4 text-left sm:grid-cols-2 lg:grid-cols-3">
          {[
            'Missed-call text back',
            'Online booking and reminders',
            'Quote and invoice automation',
            'Review requests after every job',
            'Lead follow-up sequences',
            'Simple dashboards for your numbers',
          ].map((t) => (
            <li
              key={t}
              className="rounded-xl border border-slate-200 bg-white p-4 font-medium text-slate-800"
            >
              {t}
            </li>
          ))}
        </ul>
        <NextButton to={SECTIONS[3]!} />
      </section>
      <section id="how-it-works" className={`${screen} bg-white`}>
        <h2 tabIndex={-1} className="text-3xl font-bold text-slate-900 focus:outline-none">
          How it works
        </h2>
        <ol className="mt-8 grid max-w-4xl gap-4 text-left md:grid-cols-3">
          {[
            'Join the waitlist',
            'Get the first module free at launch',
            'Build one automation a week with templates',
          ].map((t, i) => (
            <li key={t} className="rounded-xl border border-slate-200 p-5">
              <span className="font-bold text-brand-700">{i + 1}.</span> {t}
            </li>
          ))}
        </ol>
        <NextButton to={SECTIONS[4]!} />
      </section>
      <section id="join" className={`${screen} bg-brand-50`}>
        <h2 tabIndex={-1} className="text-3xl font-bold text-slate-900 focus:outline-none">
          Join the Waitlist
        </h2>
        <ReadyForm
          onSubmit={submit}
          className="mt-8 w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 text-left shadow-sm"
        >
          <RequiredNote />
          <TextField
            label="Name"
            autoComplete="name"
            required
            value={form.name}
            onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))}
          />
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            required
            value={form.email}
            onChange={(e) => setForm((f) => ({ ...f, email: e.target.value }))}
          />
          <SelectField
            label="Business type"
            required
            value={form.businessType}
            onChange={(e) => setForm((f) => ({ ...f, businessType: e.target.value }))}
          >
            <option value="">Choose your business type</option>
            {AUTOMATION_BUSINESS_TYPES.map((b) => (
              <option key={b.value} value={b.value}>
                {b.label}
              </option>
            ))}
          </SelectField>
          <Captcha onToken={setToken} resetKey={resetKey} />
          <Button type="submit" disabled={busy} className="w-full">
            {busy ? 'Joining...' : 'Join the waitlist'}
          </Button>
        </ReadyForm>
      </section>
    </div>
  );
}
