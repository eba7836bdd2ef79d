import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.ts';
import { uploadProgressText, uploadWithProgress } from './upload.ts';
import { setActiveWorkspaceSlug } from './active-workspace.ts';

/** A stand-in XMLHttpRequest: reports two progress events, then answers what `answers` holds, in turn. */
function fakeXhr(answers: { status: number; body: unknown }[]) {
  const sent: { headers: Record<string, string> }[] = [];
  class Fake {
    status = 0;
    responseText = '';
    headers: Record<string, string> = {};
    upload: { onprogress?: (e: object) => void } = {};
    onload?: () => void;
    open() {}
    setRequestHeader(k: string, v: string) {
      this.headers[k] = v;
    }
    send() {
      sent.push({ headers: this.headers });
      const a = answers.shift()!;
      queueMicrotask(() => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
        this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
        this.status = a.status;
        this.responseText = JSON.stringify(a.body);
        this.onload?.();
      });
    }
  }
  vi.stubGlobal('XMLHttpRequest', Fake);
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = 'XSRF-TOKEN=; max-age=0';
  setActiveWorkspaceSlug(null);
});

describe('uploadWithProgress', () => {
  it('reports the bytes sent and answers the JSON, with the XSRF header', async () => {
    document.cookie = 'XSRF-TOKEN=tok';
    const sent = fakeXhr([{ status: 201, body: { file: { id: 'f1' } } }]);
    const seen: number[] = [];
    const res = await uploadWithProgress('/api/upload', new FormData(), (p) => seen.push(p.loaded));
    expect(res).toEqual({ file: { id: 'f1' } });
    expect(seen).toEqual([50, 100]);
    expect(sent[0]!.headers['x-xsrf-token']).toBe('tok');
  });

  it("names the tab's workspace in x-workspace once it is known, and none before", async () => {
    const sent = fakeXhr([
      { status: 201, body: {} },
      { status: 201, body: {} },
    ]);
    await uploadWithProgress('/api/upload', new FormData(), () => {});
    setActiveWorkspaceSlug('acme-1a2b3c4d');
    await uploadWithProgress('/api/upload', new FormData(), () => {});
    expect(sent.map((s) => s.headers['x-workspace'])).toEqual([undefined, 'acme-1a2b3c4d']);
  });

  it("throws the server's code and message; a stale XSRF token is sent once more", async () => {
    const sent = fakeXhr([
      { status: 403, body: { code: 'XSRF_INVALID', message: 'expired' } },
      {
        status: 400,
        body: { code: 'VALIDATION_FAILED', message: 'Invalid file type. Please upload a CSV file.' },
      },
    ]);
    const err = await uploadWithProgress('/api/upload', new FormData(), () => {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(sent).toHaveLength(2);
  });
});

describe('uploadProgressText', () => {
  it('says how much is sent, then that the file is being read', () => {
    expect(uploadProgressText(null)).toBe('Uploading...');
    expect(uploadProgressText({ loaded: 12.3 * 1024 * 1024, total: 27 * 1024 * 1024 })).toBe(
      'Uploading... 45% (12.3 of 27.0 MB)',
    );
    expect(uploadProgressText({ loaded: 100, total: 100 })).toBe('Upload complete. Reading the file...');
  });
});
