import type { FileSettings, FileStatus } from '@backsignal/contracts';
import type { Queryable } from '../../db/db.ts';
import { jsonColumn } from '../../db/json-column.ts';

export interface UploadRow {
  id: string;
  workspaceId: string;
  fileName: string;
  status: FileStatus;
  sizeBytes: number;
  rowCount: number;
  encoding: string;
  delimiter: string;
  headers: string[];
  samples: Record<string, string[]>;
  dateOrders: Record<string, 'MDY' | 'DMY'>;
  decimalSeparators: Record<string, '.' | ','>;
  mappings: Record<string, string>;
  hardcodedValues: Record<string, string>;
  autoMapped: Record<string, string>;
  settings: FileSettings | null;
  mappingSaved: boolean;
  cleanFingerprint: string | null;
  /** What the clean validation counted (migration 0740); null unless the last validation was clean. */
  clean: { rows: number; repeats: number; validUntil: Date } | null;
  /** See migration 0260: the last validation found rows to send despite errors / the user chose to skip them. */
  skippableFingerprint: string | null;
  skipErrorsFingerprint: string | null;
  errorRows: number;
  /** Migration 0760: refunds (negative Purchase values) to send, and the user's choice for them with its fingerprint. */
  refundRows: number;
  refundChoice: 'skip' | 'send' | null;
  refundFingerprint: string | null;
  fileVersion: number;
  createdAt: Date;
}

const COLS = `id, workspace_id, file_name, status, size_bytes, row_count, encoding, delimiter, headers, samples, date_orders,
  decimal_separators, mappings, hardcoded_values, auto_mapped, settings, mapping_saved, clean_fingerprint, clean_rows, clean_repeats, clean_valid_until, skippable_fingerprint, skip_errors_fingerprint, error_rows, refund_rows, refund_choice, refund_fingerprint, file_version, created_at`;

function toRow(r: Record<string, unknown>): UploadRow {
  return {
    id: r.id as string,
    workspaceId: r.workspace_id as string,
    fileName: r.file_name as string,
    status: r.status as FileStatus,
    sizeBytes: Number(r.size_bytes),
    rowCount: Number(r.row_count),
    encoding: r.encoding as string,
    delimiter: r.delimiter as string,
    headers: jsonColumn(r.headers),
    samples: jsonColumn(r.samples),
    dateOrders: jsonColumn(r.date_orders),
    decimalSeparators: jsonColumn(r.decimal_separators),
    mappings: jsonColumn(r.mappings),
    hardcodedValues: jsonColumn(r.hardcoded_values),
    autoMapped: jsonColumn(r.auto_mapped),
    settings: r.settings ? jsonColumn(r.settings) : null,
    mappingSaved: r.mapping_saved as boolean,
    cleanFingerprint: (r.clean_fingerprint as string | null) ?? null,
    clean:
      r.clean_valid_until != null
        ? {
            rows: Number(r.clean_rows),
            repeats: Number(r.clean_repeats),
            validUntil: new Date(r.clean_valid_until as Date),
          }
        : null,
    skippableFingerprint: (r.skippable_fingerprint as string | null) ?? null,
    skipErrorsFingerprint: (r.skip_errors_fingerprint as string | null) ?? null,
    errorRows: Number(r.error_rows ?? 0),
    refundRows: Number(r.refund_rows ?? 0),
    refundChoice: (r.refund_choice as 'skip' | 'send' | null) ?? null,
    refundFingerprint: (r.refund_fingerprint as string | null) ?? null,
    fileVersion: Number(r.file_version),
    createdAt: r.created_at as Date,
  };
}

/** What reading a file tells about it: stored with the upload and replaced with a corrected file. */
interface FileContent {
  sizeBytes: number;
  rowCount: number;
  encoding: string;
  delimiter: string;
  headers: string[];
  samples: object;
  dateOrders: object;
  decimalSeparators: object;
}

const contentParams = (f: FileContent) => [
  f.sizeBytes,
  f.rowCount,
  f.encoding,
  f.delimiter,
  JSON.stringify(f.headers),
  JSON.stringify(f.samples),
  JSON.stringify(f.dateOrders),
  JSON.stringify(f.decimalSeparators),
];

export const filesRepo = {
  async createPending(db: Queryable, f: { id: string; workspaceId: string; fileName: string }) {
    await db.query('insert into uploads (id, workspace_id, file_name) values ($1, $2, $3)', [
      f.id,
      f.workspaceId,
      f.fileName,
    ]);
  },
  /** `deflated`: `data` is the chunk's bytes deflated (raw deflate, file-store.ts). */
  async addChunk(db: Queryable, uploadId: string, seq: number, data: Uint8Array, deflated: boolean) {
    await db.query('insert into upload_chunks (upload_id, seq, data, deflated) values ($1, $2, $3, $4)', [
      uploadId,
      seq,
      data,
      deflated,
    ]);
  },
  async deleteChunks(db: Queryable, uploadId: string) {
    await db.query('delete from upload_chunks where upload_id = $1', [uploadId]);
  },
  async readChunks(
    db: Queryable,
    uploadId: string,
    fromSeq: number,
    limit: number,
  ): Promise<{ seq: number; data: Uint8Array; deflated: boolean }[]> {
    const r = await db.query<{ seq: number; data: Uint8Array; deflated: boolean }>(
      'select seq, data, deflated from upload_chunks where upload_id = $1 and seq >= $2 order by seq limit $3',
      [uploadId, fromSeq, limit],
    );
    return r.rows;
  },
  async complete(db: Queryable, id: string, f: FileContent) {
    await db.query(
      `update uploads set complete = true, size_bytes = $2, row_count = $3, encoding = $4, delimiter = $5, headers = $6,
         samples = $7, date_orders = $8, decimal_separators = $9, updated_at = now() where id = $1`,
      [id, ...contentParams(f)],
    );
  },
  /** A corrected file replaces the bytes; mappings stay, validation state is reset. */
  async replaceContent(db: Queryable, id: string, f: FileContent & { fileName: string }) {
    await db.query(
      `update uploads set size_bytes = $2, row_count = $3, encoding = $4, delimiter = $5, headers = $6, samples = $7,
         date_orders = $8, decimal_separators = $9, file_name = $10,
         status = case when status in ('validated', 'prepared') then 'mapped' else status end,
         clean_fingerprint = null, file_version = file_version + 1, updated_at = now() where id = $1`,
      [id, ...contentParams(f), f.fileName],
    );
  },
  async delete(db: Queryable, id: string) {
    // A validation or prepare job ending on this upload locks its job row, then the upload; the cascade of a plain
    // delete took them the other way round, and PostgreSQL broke the deadlock by failing the delete (a 500). The
    // job rows are locked first here, as the job does.
    await db.query(
      `with jobs as (select 1 from upload_jobs where upload_id = $1 for update)
       delete from uploads where id = $1 and (select count(*) from jobs) >= 0`,
      [id],
    );
  },
  async sweepIncomplete(db: Queryable, before: Date) {
    await db.query('delete from uploads where not complete and created_at < $1', [before]);
  },
  async findInWorkspace(db: Queryable, workspaceId: string, id: string): Promise<UploadRow | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const r = await db.query(`select ${COLS} from uploads where id = $1 and workspace_id = $2 and complete`, [
      id,
      workspaceId,
    ]);
    return r.rows[0] ? toRow(r.rows[0]) : undefined;
  },
  async listForUser(
    db: Queryable,
    workspaceId: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: UploadRow[]; total: number }> {
    // A source's uploads are listed under it (listFromSource), not among the files uploaded by hand.
    const manual =
      'workspace_id = $1 and complete and not exists (select 1 from source_runs r where r.upload_id = uploads.id)';
    const [list, count] = await Promise.all([
      db.query(
        `select ${COLS} from uploads where ${manual} order by created_at desc, id limit $2 offset $3`,
        [workspaceId, limit, offset],
      ),
      db.query<{ n: number }>(`select count(*)::int as n from uploads where ${manual}`, [workspaceId]),
    ]);
    return { rows: list.rows.map(toRow), total: count.rows[0]!.n };
  },
  /**
   * One page of the same list by keyset, newest first (/api/v1): `after` is the last row of the page before, its
   * creation time as the database's text so the next page starts exactly after it.
   */
  async pageForWorkspace(
    db: Queryable,
    workspaceId: string,
    limit: number,
    after: { at: string; id: string } | null,
  ): Promise<(UploadRow & { cursorAt: string })[]> {
    const r = await db.query(
      `select ${COLS}, created_at::text as cursor_at from uploads
        where workspace_id = $1 and complete
          and not exists (select 1 from source_runs r where r.upload_id = uploads.id)
          and ($3::timestamptz is null or (created_at, id) < ($3::timestamptz, $4::uuid))
        order by created_at desc, id desc limit $2`,
      [workspaceId, limit, after?.at ?? null, after?.id ?? null],
    );
    return r.rows.map((row) => ({ ...toRow(row), cursorAt: (row as { cursor_at: string }).cursor_at }));
  },
  /** The uploads a source's runs made (the dashboard's group under the source), newest first. */
  async listFromSource(
    db: Queryable,
    workspaceId: string,
    sourceId: string,
    limit: number,
    offset: number,
  ): Promise<{ rows: UploadRow[]; total: number }> {
    const mine = `workspace_id = $1 and complete and id in (select r.upload_id from source_runs r where r.source_id = $2)`;
    const [list, count] = await Promise.all([
      db.query(`select ${COLS} from uploads where ${mine} order by created_at desc, id limit $3 offset $4`, [
        workspaceId,
        sourceId,
        limit,
        offset,
      ]),
      db.query<{ n: number }>(`select count(*)::int as n from uploads where ${mine}`, [
        workspaceId,
        sourceId,
      ]),
    ]);
    return { rows: list.rows.map(toRow), total: count.rows[0]!.n };
  },
  /** Only which fields are still as suggested: the mapping itself did not change. */
  async saveAutoMapped(db: Queryable, id: string, autoMapped: object) {
    await db.query('update uploads set auto_mapped = $2, updated_at = now() where id = $1', [
      id,
      JSON.stringify(autoMapped),
    ]);
  },
  async saveMapping(
    db: Queryable,
    id: string,
    m: {
      status: FileStatus;
      mappings: object;
      hardcodedValues: object;
      autoMapped: object;
      settings: FileSettings;
    },
  ) {
    await db.query(
      `update uploads set status = $2, mappings = $3, hardcoded_values = $4, settings = $5, auto_mapped = $6,
         mapping_saved = true, clean_fingerprint = null, updated_at = now() where id = $1`,
      [
        id,
        m.status,
        JSON.stringify(m.mappings),
        JSON.stringify(m.hardcodedValues),
        JSON.stringify(m.settings),
        JSON.stringify(m.autoMapped),
      ],
    );
  },
  async setStatus(db: Queryable, id: string, status: FileStatus) {
    await db.query('update uploads set status = $2, updated_at = now() where id = $1', [id, status]);
  },
  /** Moves the status only from one of `from`; answers whether it moved (safe under concurrent requests). */
  async transition(db: Queryable, id: string, from: FileStatus[], to: FileStatus): Promise<boolean> {
    const r = await db.query(
      'update uploads set status = $3, updated_at = now() where id = $1 and status = any($2)',
      [id, from, to],
    );
    return r.rowCount > 0;
  },
  /** A clean validation's fingerprint and counts (all null when it was not clean). */
  async setClean(
    db: Queryable,
    id: string,
    clean: { fingerprint: string; rows: number; repeats: number; validUntil: Date | null } | null,
  ) {
    await db.query(
      `update uploads set clean_fingerprint = $2, clean_rows = $3, clean_repeats = $4, clean_valid_until = $5
       where id = $1`,
      [
        id,
        clean?.fingerprint ?? null,
        clean?.rows ?? null,
        clean?.repeats ?? null,
        clean?.validUntil ?? null,
      ],
    );
  },
  /** What a validation found: rows with errors, and whether the rest could be sent without them. */
  async setErrorRows(db: Queryable, id: string, errorRows: number, skippable: string | null) {
    await db.query('update uploads set error_rows = $2, skippable_fingerprint = $3 where id = $1', [
      id,
      errorRows,
      skippable,
    ]);
  },
  async setSkipErrors(db: Queryable, id: string, fingerprint: string | null) {
    await db.query('update uploads set skip_errors_fingerprint = $2 where id = $1', [id, fingerprint]);
  },
  async setRefundRows(db: Queryable, id: string, refundRows: number) {
    await db.query('update uploads set refund_rows = $2 where id = $1', [id, refundRows]);
  },
  /** The user's choice for the refund rows of exactly this content and mapping (its fingerprint). */
  async setRefundChoice(db: Queryable, id: string, choice: 'skip' | 'send', fingerprint: string) {
    await db.query('update uploads set refund_choice = $2, refund_fingerprint = $3 where id = $1', [
      id,
      choice,
      fingerprint,
    ]);
  },
};
