import { useState } from 'react';
import { toast } from 'react-toastify';
import { errorMessage, fieldError } from './errors.ts';

/**
 * The submit cycle every account form shares: a busy flag, an inline error, and a toast when the server refuses,
 * with the spec §8 message (server message, else the fallback).
 */
export function useFormAction(fallback: string, useClientMessage = false) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fail = (message: string) => {
    setError(message);
    toast.error(message);
  };
  /**
   * A check of the form's own, before anything is sent: said once, inline (or not at all, `null`, when the
   * fields already say it). A toast of the same words on top was a second and third copy of one problem.
   */
  const block = (message: string | null) => setError(message);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      fail(errorMessage(err, fallback, useClientMessage));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, fail, block, run };
}

/**
 * The same cycle for a one-field form whose refusal belongs under that field (a workspace's name): the server's
 * message for `field`, else the fallback, shown there and nowhere else.
 */
export function useFieldAction(field: string, fallback: string) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    try {
      await work();
    } catch (err) {
      setError(fieldError(err, field, fallback));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}
