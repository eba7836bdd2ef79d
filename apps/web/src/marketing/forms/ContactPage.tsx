import { PUBLIC_PAGES } from '@backsignal/contracts/public';
import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import { CONTACT_REASONS } from '@backsignal/contracts/public';
import { Button } from '../../components/ui/Button.tsx';
import { RequiredNote, SelectField, TextAreaField, TextField } from '../../components/ui/Field.tsx';
import { api } from '../../lib/api.ts';
import { errorMessage } from '../../lib/errors.ts';
import { usePageMeta } from '../../lib/page-meta.ts';
import { useSession } from '../../lib/session.tsx';
import { Captcha } from './Captcha.tsx';
import { ReadyForm } from './ReadyForm.tsx';

export function ContactPage() {
  usePageMeta(PUBLIC_PAGES['/contact']!);
  const { user } = useSession();
  const empty = { name: '', email: '', reason: '', message: '' };
  const [form, setForm] = useState(empty);
  const [token, setToken] = useState('');
  const [resetKey, setResetKey] = useState(0);
  const [busy, setBusy] = useState(false);
  // After a send with fields missing, those fields are marked invalid (the toast says why), until filled.
  const [tried, setTried] = useState(false);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));
  // Spec §5: message and reason, plus name and email for an anonymous visitor.
  const missing = {
    name: !user && !form.name.trim(),
    email: !user && !form.email.trim(),
    reason: !form.reason,
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
    setBusy(true);
    try {
      const body = {
        reason: form.reason,
        message: form.message,
        captchaToken: token,
        ...(user ? {} : { name: form.name, email: form.email }),
      };
      const res = await api<{ message?: string }>('/api/contact', { method: 'POST', body });
      toast.success(res.message ?? 'Request submitted successfully!');
      setForm(empty);
      setTried(false);
      setResetKey((k) => k + 1);
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to send message.'));
      // The server accepts a captcha token once, even when the request then fails: a retry needs a fresh one.
      setResetKey((k) => k + 1);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="mx-auto max-w-2xl px-4 py-16">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">Contact us</h1>
      <p className="mt-2 text-slate-600">We answer within one business day.</p>
      <ReadyForm
        onSubmit={submit}
        className="mt-8 rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
        noValidate
      >
        <RequiredNote />
        {!user && (
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label="Name"
              name="name"
              autoComplete="name"
              required
              aria-invalid={invalid('name')}
              value={form.name}
              onChange={set('name')}
            />
            <TextField
              label="Email"
              name="email"
              type="email"
              autoComplete="email"
              required
              aria-invalid={invalid('email')}
              value={form.email}
              onChange={set('email')}
            />
          </div>
        )}
        <SelectField
          label="Reason"
          name="reason"
          required
          aria-invalid={invalid('reason')}
          value={form.reason}
          onChange={set('reason')}
        >
          <option value="">Choose a reason</option>
          {CONTACT_REASONS.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </SelectField>
        <TextAreaField
          label="Message"
          name="message"
          rows={6}
          required
          aria-invalid={invalid('message')}
          value={form.message}
          onChange={set('message')}
        />
        <Captcha onToken={setToken} resetKey={resetKey} />
        <Button type="submit" disabled={busy}>
          {busy ? 'Submitting...' : 'Send message'}
        </Button>
      </ReadyForm>
    </section>
  );
}
