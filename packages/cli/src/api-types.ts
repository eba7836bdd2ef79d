// The few fields of the /api/v1 answers the CLI reads (packages/contracts has the full schemas; the published CLI
// cannot depend on that private package).

export interface UploadFile {
  id: string;
  fileName: string;
  status: string;
  rowCount: number;
  sizeBytes: number;
}

export interface Named {
  id: string;
  name: string;
}

export interface PixelAccount extends Named {
  pixelId: string;
}

export interface JobError {
  code: string;
  message: string;
}

export interface UploadJob<R> {
  status: 'running' | 'done' | 'failed';
  rowsDone: number;
  rowsTotal: number;
  error: JobError | null;
  result: R | null;
}

export interface ValidationResult {
  rowsChecked: number;
  rowsWithErrors: number;
  refundRows: number;
  refundChoice: 'ask' | 'skip' | 'send';
  error?: string;
}

export interface PrepareResult {
  totalCount: number;
  skippedErrorRows: number;
  skippedRefundRows: number;
}

export type RunStatus = 'running' | 'completed' | 'completed_with_errors' | 'stopped';

export interface DeliverySummary {
  runId: string;
  status: RunStatus;
  totalSent: number;
  totalFailed: number;
  pixelAccount: { name: string; pixelId: string };
  testEventCode: string | null;
  progress: {
    totalEvents: number | null;
    eventsSent: number;
    eventsFailed: number;
    eventsSkipped: number | null;
    secondsLeft: number | null;
  };
  failureGroups: { events: number; explanation: { title: string; fix: string } }[];
  errorRowsSkipped?: number;
}
