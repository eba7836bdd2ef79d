import type { IncomingMessage, ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { FileStore } from '@tus/file-store';
import { ERRORS, Server, type Upload } from '@tus/server';
import {
  TUS_UPLOADS_PATH,
  type ErrorBody,
  type ErrorCode,
  type TusUploadState,
  type UploadResponse,
} from '@backsignal/contracts';
import { AppError, notFound } from '../../errors/app-error.ts';
import { fileTooLargeMessage } from '../../lib/upload-limit.ts';

/** A partial upload is deleted 24 hours after it was created (the tus Upload-Expires the client is told). */
export const TUS_EXPIRY_MS = 24 * 60 * 60 * 1000;
/** How long the outcome of reading a finished upload stays readable by GET /api/uploads/tus/:id. */
const OUTCOME_KEPT_MS = 60 * 60 * 1000;
/** @tus/server's ids: 16 random bytes in hex. */
export const TUS_ID = /^[0-9a-f]{32}$/;
export const UPLOAD_NOT_FOUND = 'Upload not found. Please choose the file again.';

/** Partial uploads live here, one data file and one .json info file each (decision 0120). */
export const tusDirectory = (dataDir: string) => join(dataDir, 'tus');

/** Who makes a tus request: set by the route after its guard, read in @tus/server's hooks. */
export interface TusCaller {
  workspaceId: string;
  userId: string;
}

/** Reads a finished file into an upload: the same ingest as the single-request upload. */
export type ReadUpload<C extends TusCaller> = (
  caller: C,
  fileName: string,
  bytes: AsyncIterable<Uint8Array>,
) => Promise<UploadResponse>;

type Outcome =
  | { workspaceId: string; at: number; state: 'reading' }
  | { workspaceId: string; at: number; state: 'done'; upload: UploadResponse }
  | { workspaceId: string; at: number; state: 'failed'; error: AppError };

const answer = (status: number, code: ErrorCode, message: string) => ({ status, body: { code, message } });

/** @tus/server's protocol errors as the API's error body, with the plain upload-limit text. */
function tusError(
  err: unknown,
  maxBytes: number,
  log: (err: unknown) => void,
): { status: number; body: ErrorBody } {
  if (err instanceof AppError) return answer(err.status, err.code, err.message);
  const status = (err as { status_code?: number }).status_code ?? 500;
  if (err === ERRORS.ERR_MAX_SIZE_EXCEEDED || status === 413)
    return answer(413, 'PAYLOAD_TOO_LARGE', fileTooLargeMessage(maxBytes));
  if (status === 404 || status === 410) return answer(status, 'NOT_FOUND', UPLOAD_NOT_FOUND);
  if (status === 409 || status === 423)
    return answer(status, 'CONFLICT', 'Resume from the offset the server has.');
  // Protocol answers (a missing header, a bad offset): tus's own words, which name no customer value.
  if (status >= 400 && status < 500)
    return answer(
      status,
      'VALIDATION_FAILED',
      (err as { body?: string }).body?.trim() || 'The upload request could not be read.',
    );
  log(err);
  return answer(500, 'INTERNAL', 'Something went wrong on our side. Please try again.');
}

/**
 * Resumable uploads (tus 1.0) on @tus/server with its file store under DATA_DIR/tus. The store is made on the
 * first request that needs it, so an app that never takes a tus upload writes nothing to disk.
 */
export function tusUploads<C extends TusCaller>(opts: {
  directory: string;
  maxBytes: number;
  read: ReadUpload<C>;
  /** The file's name as stored, from the client's `filename` and `filetype`; throws to refuse the file. */
  accept: (fileName: string, fileType: string) => string;
  /** An error's body as the caller's API answers errors (the session API's or v1's shape). */
  present: (caller: C | null, error: ErrorBody) => string;
  log: { error: (obj: object, msg: string) => void };
}) {
  const callers = new WeakMap<IncomingMessage, C>();
  const outcomes = new Map<string, Outcome>();
  let server: Server | null = null;
  let store: FileStore | null = null;

  const findCaller = (req: unknown): C | null => {
    const node = (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
    return (node && callers.get(node)) ?? null;
  };
  const callerOf = (req: unknown): C => {
    const caller = findCaller(req);
    if (!caller) throw new Error('a tus request reached the server without its caller');
    return caller;
  };

  const forget = (now: number) => {
    for (const [id, o] of outcomes)
      if (o.state !== 'reading' && now - o.at > OUTCOME_KEPT_MS) outcomes.delete(id);
  };

  /** Reads the finished file into an upload once; its partial file is deleted whatever the outcome. */
  function startReading(caller: C, upload: Upload) {
    const at = Date.now();
    forget(at);
    outcomes.set(upload.id, { workspaceId: caller.workspaceId, at, state: 'reading' });
    const fileName = upload.metadata?.filename ?? 'upload.csv';
    void (async () => {
      let outcome: Outcome;
      try {
        const result = await opts.read(caller, fileName, store!.read(upload.id));
        outcome = { workspaceId: caller.workspaceId, at: Date.now(), state: 'done', upload: result };
      } catch (err) {
        const error =
          err instanceof AppError
            ? err
            : new AppError('INTERNAL', 'Something went wrong on our side. Please try again.');
        if (!(err instanceof AppError)) opts.log.error({ err }, 'tus upload not read');
        outcome = { workspaceId: caller.workspaceId, at: Date.now(), state: 'failed', error };
      }
      await store!.remove(upload.id).catch(() => {});
      outcomes.set(upload.id, outcome);
    })();
  }

  function tus(): Server {
    if (server) return server;
    store = new FileStore({ directory: opts.directory, expirationPeriodInMilliseconds: TUS_EXPIRY_MS });
    const s = store;
    server = new Server({
      path: TUS_UPLOADS_PATH,
      datastore: s,
      // An upload's address is under the path it was created at: the web app's or the v1 API's.
      generateUrl: (req, { id }) => `${new URL(req.url).pathname.replace(/\/$/, '')}/${id}`,
      maxSize: opts.maxBytes,
      // Same origin (the web app) or no origin (the CLI): no other site may read an answer.
      allowedOrigins: [],
      async onIncomingRequest(req, id) {
        if (req.method === 'POST') return;
        const caller = callerOf(req);
        const upload = await s.getUpload(id).catch(() => null);
        // Another workspace's upload answers as one that does not exist.
        if (upload?.metadata?.workspaceId !== caller.workspaceId) throw notFound(UPLOAD_NOT_FOUND);
      },
      async onUploadCreate(req, upload) {
        const caller = callerOf(req);
        if (upload.sizeIsDeferred)
          throw new AppError('VALIDATION_FAILED', 'The upload must give its size (Upload-Length).');
        // Only what the reading needs: the client's other metadata is not kept.
        return {
          metadata: {
            filename: opts.accept(upload.metadata?.filename ?? '', upload.metadata?.filetype ?? ''),
            workspaceId: caller.workspaceId,
            userId: caller.userId,
          },
        };
      },
      async onUploadFinish(req, upload) {
        startReading(callerOf(req), upload);
        return {};
      },
      async onResponseError(req, err) {
        const { status, body } = tusError(err, opts.maxBytes, (e) =>
          opts.log.error({ err: e }, 'tus request failed'),
        );
        return { status_code: status, body: opts.present(findCaller(req), body) };
      },
    });
    return server;
  }

  return {
    /** Hands a guarded request to @tus/server, which answers it on the raw response. */
    handle(req: IncomingMessage, res: ServerResponse, caller: C): Promise<void> {
      callers.set(req, caller);
      return tus().handle(req, res);
    },

    /** Whether a partial upload of that id exists, without making the store. */
    exists: (id: string) => TUS_ID.test(id) && existsSync(join(opts.directory, `${id}.json`)),

    /**
     * The outcome of a finished upload. After a restart the file may be complete on disk with no reading
     * started (or one cut off): reading starts again from it.
     */
    async state(caller: C, id: string): Promise<TusUploadState> {
      const o = outcomes.get(id);
      if (o && o.workspaceId === caller.workspaceId) {
        if (o.state === 'failed') throw o.error;
        return o.state === 'done' ? { state: 'done', upload: o.upload } : { state: 'reading' };
      }
      if (!this.exists(id)) throw notFound(UPLOAD_NOT_FOUND);
      tus();
      const upload = await store!.getUpload(id).catch(() => null);
      if (!upload || upload.metadata?.workspaceId !== caller.workspaceId) throw notFound(UPLOAD_NOT_FOUND);
      if (upload.offset !== upload.size)
        throw new AppError('INVALID_STATE', 'This upload is not complete yet: resume it first.');
      startReading(caller, upload);
      return { state: 'reading' };
    },
  };
}

/**
 * Housekeeping: deletes partial uploads older than TUS_EXPIRY_MS (by their info file's creation date), and any
 * data file left without an info file (a crash between the two writes) once it has not changed for as long.
 */
export async function sweepTusUploads(directory: string, now: Date): Promise<number> {
  const names = await readdir(directory).catch(() => [] as string[]);
  const cutoff = now.getTime() - TUS_EXPIRY_MS;
  let deleted = 0;
  for (const name of names) {
    const path = join(directory, name);
    if (name.endsWith('.json')) {
      const info = await readFile(path, 'utf8')
        .then((t) => JSON.parse(t) as { creation_date?: string })
        .catch(() => null);
      const created = info?.creation_date ? Date.parse(info.creation_date) : (await stat(path)).mtimeMs;
      if (created < cutoff) {
        await rm(path.slice(0, -'.json'.length), { force: true });
        await rm(path, { force: true });
        deleted++;
      }
    } else if (!names.includes(`${name}.json`)) {
      const st = await stat(path).catch(() => null);
      if (st && st.mtimeMs < cutoff) {
        await rm(path, { force: true, recursive: true });
        deleted++;
      }
    }
  }
  return deleted;
}
