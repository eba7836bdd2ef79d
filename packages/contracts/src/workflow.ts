import { z } from 'zod';

export const FILE_STATUSES = ['uploaded', 'mapped', 'validated', 'prepared', 'submitted'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

export const Mappings = z.record(z.string().max(500), z.string().max(100));
export const HardcodedValues = z.record(z.string().max(100), z.string().max(2000));
export const AutoMapped = z.record(z.string().max(100), z.string().max(500));

export const FileSettings = z.object({
  timeZone: z.string().min(1).max(64),
  dateOrder: z.enum(['MDY', 'DMY']),
  defaultCountry: z.string().regex(/^[A-Za-z]{2}$/, 'Choose a two-letter country code.'),
});
export type FileSettings = z.infer<typeof FileSettings>;

export const UploadSummary = z.object({
  id: z.string(),
  fileName: z.string(),
  status: z.enum(FILE_STATUSES),
  rowCount: z.number(),
  sizeBytes: z.number(),
  createdAt: z.string(),
  /** Its bytes were replaced by a corrected file (POST /api/uploads/:id/fixed): still one file, same name. */
  corrected: z.boolean().optional(),
  /** The outcome of its latest send (in the list only): what the dashboard's badge says. */
  delivery: z
    .object({
      status: z.enum(['running', 'completed', 'completed_with_errors', 'stopped']),
      /** Events Meta accepted over every send of the file (a retry adds to its first send). */
      sent: z.number().int(),
      failed: z.number().int(),
      /** Left out as already delivered to the pixel; null until counted. */
      skipped: z.number().int().nullable().optional(),
      /** The pixel it was sent to: two files of the same name are told apart by it. */
      pixel: z.object({ name: z.string(), pixelId: z.string() }).optional(),
    })
    .nullable()
    .optional(),
});
export type UploadSummary = z.infer<typeof UploadSummary>;

export const UploadList = z.object({ uploads: z.array(UploadSummary), total: z.number() });
export type UploadList = z.infer<typeof UploadList>;

export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  offset: z.coerce.number().int().min(0).default(0),
});

/** POST /api/upload and POST /api/uploads/:id/fixed. */
export const UploadResponse = z.object({
  file: UploadSummary,
  headers: z.array(z.string()),
  issues: z.array(z.object({ rowNumber: z.number().nullable(), code: z.string(), message: z.string() })),
  message: z.string(),
});
export type UploadResponse = z.infer<typeof UploadResponse>;

export const HeadersResponse = z.object({
  headers: z.array(z.string()),
  mappings: Mappings,
  hardcodedValues: HardcodedValues,
  settings: FileSettings,
  /** Column → first non-empty values, shown beside each column on the mapping screen. */
  samples: z.record(z.string(), z.array(z.string())),
  /** Whether the user has saved a mapping yet (else suggestions are auto-applied). */
  saved: z.boolean(),
  /** Field → column of the mapped fields still as suggested ('Auto-Mapped'). */
  autoMapped: AutoMapped,
});
export type HeadersResponse = z.infer<typeof HeadersResponse>;

export const StatusUpdate = z.object({
  status: z.enum(['uploaded', 'mapped', 'validated']),
  mappings: Mappings.optional(),
  hardcodedValues: HardcodedValues.optional(),
  settings: FileSettings.optional(),
  autoMapped: AutoMapped.optional(),
  /**
   * With 'validated': leave the rows with errors out and send the rest (an opt-in beyond the spec, which blocks
   * the whole file; see docs/decisions/0055). Stored with the upload until its mapping or content changes.
   */
  skipErrorRows: z.boolean().optional(),
});
export type StatusUpdate = z.infer<typeof StatusUpdate>;

/** PUT /api/uploads/:id/refund-rows: skip or send the file's Purchase rows with a negative value (decision 0098). */
export const RefundChoiceUpdate = z.object({
  choice: z.enum(['skip', 'send'], { error: 'Choose skip or send for the refund rows.' }),
});
export type RefundChoiceUpdate = z.infer<typeof RefundChoiceUpdate>;

export const RowMessage = z.object({ field: z.string(), message: z.string() });
export const ValidationRow = z.object({
  rowNumber: z.number(),
  hasErrors: z.boolean(),
  hasCorrections: z.boolean(),
  errors: z.array(RowMessage),
  corrections: z.array(RowMessage.extend({ original: z.string(), corrected: z.string() })),
  /** Values that cannot be used: the event goes without them. */
  hasDrops: z.boolean(),
  drops: z.array(RowMessage.extend({ reason: z.string(), original: z.string() })),
  warnings: z.array(RowMessage),
  effectiveRow: z.record(z.string(), z.string()),
});
export type ValidationRow = z.infer<typeof ValidationRow>;

/** One field and reason across the file: "139 emails can't be used: accented letters Meta does not accept". */
export const DroppedValues = z.object({
  field: z.string(),
  reason: z.string(),
  count: z.number(),
  message: z.string(),
});
export type DroppedValues = z.infer<typeof DroppedValues>;

export const MatchQuality = z.object({
  identifiers: z.record(z.string(), z.number()),
  rows: z.number(),
  score: z.number(),
  label: z.enum(['Poor', 'OK', 'Good', 'Great']),
  advice: z.array(z.string()),
});

export const ValidationResponse = z.object({
  rows: z.array(ValidationRow),
  rowsChecked: z.number(),
  rowsWithErrors: z.number(),
  rowsCorrected: z.number(),
  rowsWithWarnings: z.number(),
  /** Rows with at least one dropped value, and every drop counted per field and reason (most first). */
  rowsWithDrops: z.number(),
  droppedValues: z.array(DroppedValues),
  /** The file's time zone: times in the rows are shown in it. */
  timeZone: z.string(),
  /** The user chose to leave the rows with errors out (StatusUpdate.skipErrorRows). */
  skipErrorRows: z.boolean(),
  /**
   * Purchase rows with a negative value (refunds) among the rows to send, and what the user chose for them
   * ('ask' until a choice is made for this content and mapping; docs/decisions/0098).
   */
  refundRows: z.number(),
  refundChoice: z.enum(['ask', 'skip', 'send']),
  fileIssues: z.array(z.object({ rowNumber: z.number().nullable(), code: z.string(), message: z.string() })),
  /** Repairs of the file itself (encoding, line endings, blank lines, whitespace, title lines, long cells), each once with its count. */
  fileNotices: z.array(z.object({ code: z.string(), message: z.string(), count: z.number() })),
  quality: MatchQuality.nullable(),
  /** Whole-file failure (headers and mappings disagree, unreadable file). */
  error: z.string().optional(),
});
export type ValidationResponse = z.infer<typeof ValidationResponse>;

export const PrepareResponse = z.object({
  totalCount: z.number(),
  status: z.enum(FILE_STATUSES),
  /** Rows with errors left out by the user's choice (0 when the file had none). */
  skippedErrorRows: z.number(),
  /** Refund rows (negative Purchase values) left out by the user's choice (docs/decisions/0098). */
  skippedRefundRows: z.number(),
});
export type PrepareResponse = z.infer<typeof PrepareResponse>;
export const PreviewResponse = z.object({
  previewRows: z.array(z.record(z.string(), z.unknown())),
  totalCount: z.number(),
  /** Beside each previewed event: its CSV row and its values normalised, before hashing (what is hashed). */
  previewDetails: z.array(z.object({ rowNumber: z.number(), normalized: z.record(z.string(), z.string()) })),
  timeZone: z.string(),
});
export type PreviewResponse = z.infer<typeof PreviewResponse>;

export const TemplateName = z
  .string({ error: 'Template name is required.' })
  .trim()
  .min(1, 'Template name is required.')
  .max(20, 'Template name must be 20 characters or fewer.');
export const TemplateCreate = z.object({
  name: TemplateName,
  mappings: Mappings,
  hardcoded: HardcodedValues.default({}),
});
/**
 * PATCH /api/mappings/:id: {mappings, hardcoded} updates the content, {name} renames (both at once do both).
 * Unknown fields (id, userId, createdAt from a client echoing the template back) are ignored, never trusted.
 */
export const TemplateUpdate = z
  .object({
    name: TemplateName.optional(),
    mappings: Mappings.optional(),
    hardcoded: HardcodedValues.optional(),
  })
  .refine((b) => b.name !== undefined || b.mappings !== undefined, {
    message: 'Send a new name or the mappings to save.',
  });
export const TemplateSummary = z.object({ id: z.string(), name: z.string() });
export const TemplateDetail = TemplateSummary.extend({ mappings: Mappings, hardcoded: HardcodedValues });
export type TemplateDetail = z.infer<typeof TemplateDetail>;

export const PixelId = z
  .string()
  .trim()
  .regex(/^\d{5,20}$/, 'Pixel ID must be the number shown in Events Manager (digits only).');
export const AccountCreate = z.object({
  name: z.string().trim().max(60).optional().default(''),
  pixelId: z
    .string({ error: 'Pixel ID and Access Token are required.' })
    .trim()
    .min(1, 'Pixel ID and Access Token are required.')
    .pipe(PixelId),
  accessToken: z
    .string({ error: 'Pixel ID and Access Token are required.' })
    .trim()
    .min(1, 'Pixel ID and Access Token are required.')
    .max(1000),
});
export const AccountUpdate = z.object({
  name: z.string().trim().max(60).optional(),
  pixelId: PixelId.optional(),
  accessToken: z.string().trim().min(1).max(1000).optional(),
});
export const PixelAccount = z.object({
  id: z.string(),
  name: z.string(),
  pixelId: z.string(),
  /** Masked: only the last 4 characters. */
  accessToken: z.string(),
  status: z.enum(['active', 'reconnect_needed']),
});
export type PixelAccount = z.infer<typeof PixelAccount>;
export const ConnectionTest = z.object({
  ok: z.boolean(),
  message: z.string(),
  pixelName: z.string().optional(),
});
export type ConnectionTest = z.infer<typeof ConnectionTest>;
