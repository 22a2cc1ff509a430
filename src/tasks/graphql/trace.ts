// A run's Playwright trace in GraphQL: TaskRun.traceUrl (where the task API serves the zip) and
// TaskRunMedia.trace (the zip as base64, what that route reads).
import { builder } from '../../graphql/builder.js';
import { hasTrace, loadTrace, NO_TRACE_WITH_SECRETS, traceUrl } from '../trace.js';
import { TaskRun } from './refs.js';
import { TaskRunMedia } from './run.js';

builder.objectField(TaskRun, 'traceUrl', (t) =>
  t.string({
    nullable: true,
    description:
      "Where the run's Playwright trace zip is served (the URL carries the run's share token; `npx playwright-core show-trace <file>` opens it). Null until one is kept: runs of tasks with secrets keep none.",
    resolve: async (run, _args, ctx) => ((await hasTrace(ctx.prisma, run.id)) ? traceUrl(ctx.config.siteUrl, run) : null),
  }),
);

builder.objectFields(TaskRunMedia, (t) => ({
  trace: t.string({
    nullable: true,
    description: "The run's Playwright trace zip, base64; null while there is none.",
    resolve: async (media, _args, ctx) => (await loadTrace(ctx.prisma, media.runId))?.toString('base64') ?? null,
  }),
  traceAbsence: t.string({
    nullable: true,
    description: 'Why the run has no trace, when it has none.',
    resolve: async (media, _args, ctx) => {
      if (await hasTrace(ctx.prisma, media.runId)) return null;
      const run = await ctx.prisma.taskRun.findUnique({
        where: { id: media.runId },
        select: { status: true, task: { select: { secrets: true } } },
      });
      if (run?.task.secrets) return NO_TRACE_WITH_SECRETS;
      if (!ctx.config.tasks.maxTraceBytes) return 'Traces are off on this server (TASK_MAX_TRACE_BYTES=0).';
      return run?.status === 'completed' || run?.status === 'error'
        ? `The run kept no trace (it never opened the browser, or its trace was over TASK_MAX_TRACE_BYTES, ${ctx.config.tasks.maxTraceBytes} bytes).`
        : 'The run has no trace yet: it is kept when the run ends or pauses.';
    },
  }),
}));
