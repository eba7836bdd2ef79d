import { expect } from 'vitest';
import type { DeliverySummary, Insights } from '@backsignal/contracts';
import type { Agent } from '../../../test/agent.ts';
import { multipartFile } from '../../../test/multipart.ts';

/** GET /api/insights as the agent, answered 200. */
export async function readInsightsAs(agent: Agent, query = ''): Promise<Insights> {
  const r = await agent.get(`/api/insights${query}`);
  expect(r.statusCode, r.body).toBe(200);
  return r.json() as Insights;
}

/**
 * Uploads, maps, validates, prepares and sends a file as a user does, `work` running the send to its end; answers
 * the upload's id, the run's summary and how many rows validation corrected.
 */
export async function sendFile(
  agent: Agent,
  work: (runId: string) => Promise<unknown>,
  file: { name: string; body: string; mapping: Record<string, unknown>; accountId: string; send?: object },
) {
  const up = await agent.request({
    method: 'POST',
    url: '/api/upload',
    ...multipartFile(file.name, file.body),
  });
  expect(up.statusCode, up.body).toBe(201);
  const id = up.json().file.id as string;
  const mapped = await agent.patch(`/api/uploads/${id}/status`, { status: 'mapped', ...file.mapping });
  expect(mapped.statusCode, mapped.body).toBe(200);
  const validation = (await agent.get(`/api/uploads/${id}/validate`)).json();
  expect(validation.rowsWithErrors).toBe(0);
  expect((await agent.patch(`/api/uploads/${id}/status`, { status: 'validated' })).statusCode).toBe(200);
  expect((await agent.get(`/api/uploads/${id}/prepare`)).json().status).toBe('prepared');
  const started = await agent.post(`/api/uploads/${id}/send`, {
    selectedAccountId: file.accountId,
    ...file.send,
  });
  expect(started.statusCode, started.body).toBe(202);
  await work(started.json().runId);
  const summary = (await agent.get(`/api/uploads/${id}/summary`)).json() as DeliverySummary;
  return { id, summary, rowsCorrected: validation.rowsCorrected as number };
}
