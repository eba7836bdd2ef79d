import { PUBLIC_PAGES } from '@backsignal/contracts/public';
import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { Button } from '../../components/ui/Button.tsx';
import { RequiredNote, TextAreaField, TextField } from '../../components/ui/Field.tsx';
import { api } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useSession } from '../../lib/session.tsx';
import { track } from '../../lib/track.ts';
import { Captcha } from './Captcha.tsx';
import { ReadyForm } from './ReadyForm.tsx';

export function LeadAiPage() {
  usePageMeta(PUBLIC_PAGES['/lead-ai']!);
  const { user } = useSession();
  const [form, setForm] = useState({ name: '', email: '', business: '', message: '' });
  const [token, setToken] = useState('');
  const [resetKey, setResetKey] = useState(0);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);

  // After a send with fields missing, those fields are marked invalid (the toast says why), until filled.
  const [tried, setTried] = useState(false);
  // Spec §5: a message is required, plus name and email for anonymous visitors (the reason is the waitlist).
  const missing = {
    name: !user && !form.name.trim(),
    email: !user && !form.email.trim(),
    message: !form.message.trim(),
  };
  const invalid = (k: keyof typeof missing) => (tried && missing[k]) || undefined;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (Object.values(missing).some(Boolean)) {
      setTried(true);
      return void toast.error('Please fill in all required fields.');
    }
    if (!token) return void toast.error('Please complete the captcha.');
    track('lead_ai_waitlist_attempted');
    setBusy(true);
    try {
      const message = `Lead-AI waitlist${form.business ? ` — business: ${form.business}` : ''}\n\n${form.message.trim()}`;
      await api('/api/contact', {
        method: 'POST',
        body: {
          reason: 'lead-ai-waitlist',
          message,
          captchaToken: token,
          ...(user ? {} : { name: form.name, email: form.email }),
        },
      });
      track('lead_ai_waitlist_submitted');
      setForm({ name: '', email: '', business: '', message: '' });
      setTried(false);
      setResetKey((k) => k + 1);
      setDone(true);
    } catch (err) {
      const msg = errorMessage(err, 'Submission failed.', true);
      track('lead_ai_waitlist_failed', { error_message: msg });
      toast.error(msg);
      // The server accepts a captcha token once, even when the request then fails: a retry needs a fresh one.
      setResetKey((k) => k + 1);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="mx-auto grid max-w-6xl gap-10 px-4 py-16 md:grid-cols-2">
      <div>
        <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">Coming soon</p>
        <h1 className="mt-2 text-4xl font-bold tracking-tight text-slate-900">
          Reply to every lead in under 60 seconds
        </h1>
        <p className="mt-4 text-lg text-slate-600">
          The first business to answer usually wins the job. Our AI assistant texts and emails every new lead
          within a minute, answers their first questions and books the call, day or night.
        </p>
        <ul className="mt-6 space-y-2 text-slate-700">
          <li>✓ $29 a month</li>
          <li>✓ Lifetime pricing for early users</li>
          <li>✓ Works with your existing forms and phone number</li>
        </ul>
      </div>
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
        {done ? (
          <div role="status" className="py-10 text-center">
            <h2 className="text-2xl font-bold text-slate-900">You're on the Waitlist!</h2>
            <p className="mt-2 text-slate-600">
              We will email you when your spot opens, with your lifetime price locked in.
            </p>
          </div>
        ) : (
          <ReadyForm onSubmit={submit} noValidate>
            <h2 className="text-lg font-semibold text-slate-900">Join the waitlist</h2>
            <RequiredNote />
            {!user && (
              <>
                <TextField
                  label="Name"
                  autoComplete="name"
                  required
                  aria-invalid={invalid('name')}
                  value={form.name}
                  onChange={(e) => setForm((f) => ({ ...f, name: e.target.value }))}
                />
                <TextField
                  label="Email"
                  type="email"
                  autoComplete="email"
                  required
                  aria-invalid={invalid('email')}
                  value={form.email}
                  onChange={(e) => setForm((f) => ({ ...f, email: e.target.value }))}
                />
              </>
            )}
            <TextField
              label="Business type (optional)"
              value={form.business}
              onChange={(e) => setForm((f) => ({ ...f, business: e.target.value }))}
            />
            <TextAreaField
              label="Message"
              required
              aria-invalid={invalid('message')}
              rows={3}
              placeholder="How do leads reach you today, and how fast do you answer them?"
              value={form.message}
              onChange={(e) => setForm((f) => ({ ...f, message: e.target.value }))}
            />
            <Captcha onToken={setToken} resetKey={resetKey} />
            <Button type="submit" disabled={busy} className="w-full">
              {busy ? 'Submitting...' : 'Join the waitlist'}
            </Button>
          </ReadyForm>
        )}
      </div>
    </section>
  );
}
