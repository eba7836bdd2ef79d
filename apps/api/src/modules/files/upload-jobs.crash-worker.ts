// A process for the file-job crash test: takes the upload's validation job as a server would (POST), and kills
// itself with SIGKILL once the pass has read its first rows, exactly like `kill -9` (no cleanup, no finally).
import { openDatabase } from '../../db/open.ts';
import { startJob } from './upload-jobs.service.ts';

const env = process.env;
const db = await openDatabase({
  databaseUrl: env.CRASH_DB_URL || undefined,
  dataDir: env.CRASH_DATA_DIR ?? '',
});
const { job } = await startJob(
  {
    db,
    quotas: { uploadBytes: 1e12, rows: 1e9 },
    now: () => new Date(),
    timing: { heartbeatMs: 100, staleAfterMs: 400, sweepEveryMs: 100 },
    onProgress: (rows) => {
      if (rows > 0) {
        console.log(JSON.stringify({ jobId: job.id, killedAt: rows }));
        process.kill(process.pid, 'SIGKILL');
      }
    },
  },
  env.CRASH_USER_ID!,
  env.CRASH_UPLOAD_ID!,
  'validate',
);
// The pass runs in the background; this process dies inside it.
await new Promise(() => {});
