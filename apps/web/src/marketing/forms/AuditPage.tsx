import { PUBLIC_PAGES } from '@backsignal/contracts/public';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { toast } from 'react-toastify';
import { AUDIT_BUSINESS_TYPES, LEAK_STATEMENTS } from '@backsignal/contracts/public';
import { Button } from '../../components/ui/Button.tsx';
import { RequiredNote, SelectField, TextAreaField, TextField } from '../../components/ui/Field.tsx';
import { api } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { usePublicConfig } from '../../lib/public-config.ts';
import { track } from '../../lib/track.ts';
import { Captcha } from './Captcha.tsx';
import { ReadyForm } from './ReadyForm.tsx';
import { AUDIT_FAQ } from './leaks.ts';
import { firePixelLead } from './marketing-pixel.ts';

export function AuditPage() {
  usePageMeta(PUBLIC_PAGES['/audit']!);
  const { bookACallUrl, marketingPixelId } = usePublicConfig();
  const empty = { name: '', email: '', website: '', challenges: '', businessType: '' };
  const [form, setForm] = useState(empty);
  const [leaks, setLeaks] = useState<string[]>([]);
  const [token, setToken] = useState('');
  const [resetKey, setResetKey] = useState(0);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!token) return void toast.error('Please complete the captcha.');
    setBusy(true);
    try {
      await api('/api/audit', {
        method: 'POST',
        body: { ...form, leaks, captchaToken: token },
        credentials: false,
      });
      track('audit_request_submitted', { businessType: form.businessType, leaks: leaks.length });
      firePixelLead(marketingPixelId);
      setForm(empty);
      setLeaks([]);
      setResetKey((k) => k + 1);
      setDone(true);
    } catch (err) {
      toast.error(errorMessage(err, 'There was a problem submitting your audit. Please try again.', true));
      setResetKey((k) => k + 1);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-white px-4 pb-12 pt-16">
        <div className="mx-auto max-w-3xl text-center">
          <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
            Are You Wasting Money on Ads You Can't Track?
          </h1>
          <p className="mt-4 text-lg text-slate-600">
            Answer five questions in 60 seconds. We email you a tracking score and the fixes that matter most
            for your business.
          </p>
        </div>
      </section>
      <section className="mx-auto max-w-2xl px-4 pb-16">
        {done ? (
          <div role="status" className="rounded-2xl border border-emerald-200 bg-emerald-50 p-8 text-center">
            <h2 className="text-2xl font-bold text-slate-900">Thank you! Your audit is on its way.</h2>
            <p className="mt-2 text-slate-700">
              We sent your score and fix list to your inbox. Want help closing the gaps?
            </p>
            <a
              href={bookACallUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="mt-4 inline-block font-semibold text-brand-700 underline"
            >
              Book a free strategy session
            </a>
          </div>
        ) : (
          <ReadyForm onSubmit={submit} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
            <RequiredNote />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField label="Name" autoComplete="name" required value={form.name} onChange={set('name')} />
              <TextField
                label="Email"
                type="email"
                autoComplete="email"
                required
                value={form.email}
                onChange={set('email')}
              />
            </div>
            <TextField
              label="Website (optional)"
              type="url"
              placeholder="https://"
              value={form.website}
              onChange={set('website')}
            />
            <SelectField
              label="Business type"
              required
              value={form.businessType}
              onChange={set('businessType')}
            >
              <option value="">Choose your business type</option>
              {AUDIT_BUSINESS_TYPES.map((b) => (
                <option key={b.value} value={b.value}>
                  {b.label}
                </option>
              ))}
            </SelectField>
            <fieldset>
              <legend className="text-sm font-medium text-slate-700">Tick what is true for you today</legend>
              <div className="mt-2 space-y-2">
                {LEAK_STATEMENTS.map((l) => (
                  <label
                    key={l.key}
                    className="flex items-start gap-3 rounded-lg border border-slate-200 px-3 py-2 text-sm text-slate-700"
                  >
                    <input
                      type="checkbox"
                      className="mt-0.5 h-4 w-4"
                      checked={leaks.includes(l.text)}
                      onChange={(e) =>
                        setLeaks((s) => (e.target.checked ? [...s, l.text] : s.filter((x) => x !== l.text)))
                      }
                    />
                    {l.text}
                  </label>
                ))}
              </div>
            </fieldset>
            <TextAreaField
              label="Biggest tracking challenge (optional)"
              rows={3}
              value={form.challenges}
              onChange={set('challenges')}
            />
            <Captcha onToken={setToken} resetKey={resetKey} />
            <Button type="submit" disabled={busy} className="w-full">
              {busy ? 'Submitting Audit' : 'Get my free audit'}
            </Button>
          </ReadyForm>
        )}
      </section>
      <AuditFaq />
    </>
  );
}

export function AuditFaq() {
  return (
    <section className="bg-slate-50 px-4 py-16">
      <div className="mx-auto max-w-3xl">
        <h2 className="text-2xl font-bold text-slate-900">Frequently asked questions</h2>
        <div className="mt-6 space-y-3">
          {AUDIT_FAQ.map((f) => (
            <details key={f.q} className="rounded-xl border border-slate-200 bg-white px-4 py-3">
              <summary className="cursor-pointer font-medium text-slate-900">{f.q}</summary>
              <p className="mt-2 text-slate-600">{f.a}</p>
            </details>
          ))}
        </div>
        <p className="mt-6 text-slate-600">
          Another question?{' '}
          <Link to="/contact" className="font-semibold text-brand-700 underline">
            Contact us
          </Link>
          .
        </p>
      </div>
    </section>
  );
}
