import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { UploadJobParams, type UploadJobLookup, type UploadJobResponse } from '@backsignal/contracts';
import type { ResolvedDeps } from '../../deps.ts';
import { perUserLimit } from '../../lib/per-user-limit.ts';
import { currentWorkspace, roleGuard } from '../../plugins/workspace.ts';
import { findJob, jobDeps, presentJob, startJob } from './upload-jobs.service.ts';
import { logActivity } from '../activity/activity.http.ts';

/**
 * Validation and prepare as background jobs (docs/decisions/0091): POST starts one (or answers the one
 * running), GET reads its progress and, once done, its result. Both answer at once whatever the file size.
 */
export const uploadJobRoutes =
  (deps: ResolvedDeps): FastifyPluginAsync =>
  async (instance) => {
    const app = instance.withTypeProvider<ZodTypeProvider>();
    const need = roleGuard(deps.db);
    app.addHook('preValidation', need('viewer'));
    const uid = (r: FastifyRequest) => currentWorkspace(r).id;
    const jd = jobDeps(deps, instance.log);

    app.post(
      '/api/uploads/:id/jobs/:kind',
      { preValidation: need('member'), schema: { params: UploadJobParams }, config: perUserLimit(60) },
      async (request, reply) => {
        const { job, upload, started } = await startJob(
          jd,
          uid(request),
          request.params.id,
          request.params.kind,
        );
        if (started && job.kind === 'validate')
          await logActivity(deps.db, request, 'validation.started', upload.fileName);
        return reply.status(202).send({ job: presentJob(job, upload) } satisfies UploadJobResponse);
      },
    );

    app.get(
      '/api/uploads/:id/jobs/:kind',
      { preValidation: need('member'), schema: { params: UploadJobParams } },
      async (request): Promise<UploadJobLookup> => {
        const { job, upload } = await findJob(jd, uid(request), request.params.id, request.params.kind);
        return { job: job ? presentJob(job, upload) : null };
      },
    );
  };
