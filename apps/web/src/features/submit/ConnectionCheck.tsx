import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '../../components/ui/Button.tsx';
import { errorMessage } from '../../lib/errors.ts';
import { workflowApi } from '../workflow/workflow-api.ts';

export type TestState = { state: 'pending' | 'ok' | 'failed'; message: string } | null;
const COLOUR = { pending: 'text-slate-600', ok: 'text-emerald-700', failed: 'text-red-700' };

/** Asks Meta whether the account's pixel and token work, as on the Pixel Accounts page. */
export async function testAccount(id: string, set: (t: TestState) => void) {
  set({ state: 'pending', message: 'Testing...' });
  try {
    const r = await workflowApi.testAccount(id);
    set({ state: r.ok ? 'ok' : 'failed', message: r.message });
  } catch (err) {
    set({ state: 'failed', message: errorMessage(err, 'Could not test the connection.') });
  }
}

/** 'Test connection' for the account chosen on /submit; a new result replaces the last one. */
export function ConnectionCheck({ accountId, initial }: { accountId: string; initial?: TestState }) {
  const queryClient = useQueryClient();
  const [test, setTest] = useState<TestState>(initial ?? null);
  useEffect(() => setTest(initial ?? null), [accountId, initial]);
  const run = async () => {
    await testAccount(accountId, setTest);
    // A working token clears 'reconnect needed' on the server.
    await queryClient.invalidateQueries({ queryKey: ['accounts'] });
  };
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button variant="secondary" onClick={run} disabled={test?.state === 'pending'}>
        Test connection
      </Button>
      {test && (
        <p role="status" className={`text-sm ${COLOUR[test.state]}`}>
          {test.message}
        </p>
      )}
    </div>
  );
}
