import { createReadStream } from 'node:fs';
import { basename, join } from 'node:path';
import * as tus from 'tus-js-client';
import type { Api } from './client.ts';
import { sleep } from './client.ts';
import { CliError } from './errors.ts';
import type { UploadFile } from './api-types.ts';

/** Where tus uploads are created for API keys. */
export const TUS_PATH = '/api/v1/uploads/tus';
/**
 * Bytes per PATCH: the web app's 5 MiB (decision 0120), so that behind a proxy that ends requests after 60 s a
 * chunk still arrives on a 1 Mbit/s uplink (~42 s).
 */
export const CHUNK_BYTES = 5 * 1024 * 1024;
const RETRY_DELAYS = [0, 1000, 3000, 5000, 10000, 20000, 30000];

type FileUrlStorageClass = new (path: string) => NonNullable<tus.UploadOptions['urlStorage']>;

function errorOf(err: Error): CliError {
  const res = (err as tus.DetailedError).originalResponse;
  if (!res) return new CliError(`The upload failed: ${err.message}`, 'NETWORK');
  let body: { code?: string; message?: string } = {};
  try {
    body = JSON.parse(res.getBody()) as typeof body;
  } catch {
    // A proxy's own page.
  }
  return new CliError(
    body.message || `The upload failed with HTTP ${res.getStatus()}.`,
    body.code,
    res.getStatus(),
  );
}

/**
 * Sends a file with tus: 5 MiB requests, retried from the server's offset after a dropped connection, and resumed
 * by a later run for the same file (its address is kept in the config folder until it succeeds). Answers the
 * upload once the server has read the file.
 */
export async function uploadFile(
  api: Api,
  path: string,
  stateDir: string,
  onProgress: (sent: number, total: number) => void,
  onReading: () => void,
): Promise<{ file: UploadFile; resumed: boolean }> {
  const { apiUrl, apiKey } = api.credentials;
  const FileUrlStorage = (tus as unknown as { FileUrlStorage: FileUrlStorageClass }).FileUrlStorage;
  let resumed = false;
  const location = await new Promise<string>((resolve, reject) => {
    const upload = new tus.Upload(createReadStream(path), {
      endpoint: apiUrl + TUS_PATH,
      chunkSize: CHUNK_BYTES,
      retryDelays: RETRY_DELAYS,
      headers: { authorization: `Bearer ${apiKey}` },
      metadata: { filename: basename(path), filetype: 'text/csv' },
      urlStorage: new FileUrlStorage(join(stateDir, 'uploads.json')),
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => onProgress(sent, total ?? sent),
      onSuccess: () => resolve(upload.url!),
      onError: (err) => reject(errorOf(err)),
    });
    upload.findPreviousUploads().then((previous) => {
      if (previous[0]) {
        upload.resumeFromPreviousUpload(previous[0]);
        resumed = true;
      }
      upload.start();
    }, reject);
  });
  onReading();
  const statePath = new URL(location, apiUrl).pathname;
  for (;;) {
    const state = await api.get<{ state: 'reading' } | { state: 'done'; upload: { file: UploadFile } }>(
      statePath,
    );
    if (state.state === 'done') return { file: state.upload.file, resumed };
    await sleep(500);
  }
}
