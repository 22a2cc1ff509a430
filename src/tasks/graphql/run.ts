// TaskRun with its steps, tool calls and recording; the taskRun query and the run mutations
// (stopTaskRun, submitToolInput).
import { builder } from '../../graphql/builder.js';
import { isBuiltInName } from '../actions.js';
import { NodeInterface, nodeIdField, nodeSource, stringId } from '../../graphql/node.js';
import { buildRunGif, countScreenshots, recordingUrl, runByToken, screenshotUrl, stepScreenshot } from '../recording.js';
import { findRun, findRuns, listSteps, pendingToolCall, stopRun, submitToolInput } from '../runs.js';
import { UNFINISHED, type DetailedStatus, type RunStatus } from '../statuses.js';
import { batchLoader, ownerOf, runArgs, runNamed } from './resolve.js';
import { runUsages } from '../budgets.js';
import type { GraphQLContext } from '../../graphql/context.js';
import { DetailedStatusEnum, RecordingStatusEnum, RunStatusEnum, TaskRecording, TaskRun, TaskStep, ToolCall } from './refs.js';

const parse = (text: string | null) => (text == null ? null : JSON.parse(text));

/** A run's LLM use, loaded for all the runs of a request at once. */
const usageOf = async (ctx: GraphQLContext, runId: string) =>
  (await batchLoader(ctx, 'usage', (ids: string[]) => runUsages(ctx.prisma, ids))(runId))!;

ToolCall.implement({
  description: "A call the agent made to one of the caller's tools; the run waits in tool_call until its input arrives.",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The toolCallId to answer with.' }),
    name: t.exposeString('name', { description: 'The function name.' }),
    parameters: t.field({
      type: 'JSON',
      description: "The arguments the agent chose (matching the tool's JSON Schema).",
      resolve: (c) => JSON.parse(c.arguments),
    }),
    input: t.exposeString('input', { nullable: true, description: "The client's answer; null while waiting." }),
    createdAt: t.field({ type: 'DateTime', description: 'When the agent made the call.', resolve: (c) => c.createdAt }),
    answeredAt: t.field({ type: 'DateTime', nullable: true, description: 'When the input arrived.', resolve: (c) => c.answeredAt }),
  }),
});

TaskStep.implement({
  description: 'One step of a run: the page the agent saw and the action it chose.',
  fields: (t) => ({
    index: t.exposeInt('index', { description: 'The step number, from 1.' }),
    url: t.exposeString('url', { description: 'The page URL when the step began.' }),
    title: t.exposeString('title', { description: 'The page title when the step began.' }),
    action: t.exposeString('action', { description: 'The action (a built-in browser action or a caller tool).' }),
    callsCallerTool: t.boolean({
      description:
        "Whether the action is one of the caller's tools (the run then waited for a ToolCall's input) rather than a built-in browser action.",
      resolve: (s) => !isBuiltInName(s.action),
    }),
    arguments: t.field({ type: 'JSON', description: "The action's arguments.", resolve: (s) => JSON.parse(s.arguments) }),
    result: t.exposeString('result', { description: 'What happened, as the agent was told.' }),
    tokens: t.exposeInt('tokens', { description: 'Tokens the LLM reported for deciding this step (0 when it reports none).' }),
    costUsd: t.exposeFloat('costUsd', {
      nullable: true,
      description: "What those tokens cost in USD at the model's price in LLM_PRICES; null when it had none.",
    }),
    reasoning: t.exposeString('reasoning', {
      description: 'What the model said before choosing the action (its reasoning, at most 4,000 characters); "" when it said nothing.',
    }),
    locator: t.field({
      type: 'JSON',
      nullable: true,
      description:
        'How to find the element the step acted on again when numbers change: {tag, frame?, type?, role?, name?, label?, href?} (name is the name attribute, label the accessible name or text); null when it acted on no element.',
      resolve: (s) => (s.locator ? JSON.parse(s.locator) : null),
    }),
    replayed: t.exposeBoolean('replayed', {
      description: "Whether the step was replayed from the task's replayOf run, without the LLM (its tokens are then 0).",
    }),
    createdAt: t.field({ type: 'DateTime', description: 'When the step was recorded.', resolve: (s) => s.createdAt }),
    screenshotUrl: t.string({
      nullable: true,
      description: 'A PNG of the page the agent saw (usable without an API key), or null.',
      resolve: (s, _args, ctx) => (s.hasScreenshot ? screenshotUrl(ctx.config.siteUrl, s.run, s.index) : null),
    }),
  }),
});

TaskRecording.implement({
  description: "The animated GIF of a run's screenshots.",
  fields: (t) => ({
    status: t.field({
      type: RecordingStatusEnum,
      description: 'Whether there is a recording yet.',
      resolve: (r) => r.status as 'completed',
    }),
    url: t.exposeString('url', { nullable: true, description: 'Where the GIF is served (no API key needed: the URL carries a token).' }),
    error: t.exposeString('error', { nullable: true, description: 'Why there is no recording.' }),
  }),
});

TaskRun.implement({
  description: 'One execution of a task.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The run id.' }),
    nodeId: nodeIdField(t, 'TaskRun'),
    taskId: t.exposeID('taskId', { description: 'The task it runs.' }),
    status: t.field({ type: RunStatusEnum, description: 'The state of the run, for clients.', resolve: (run) => run.status as RunStatus }),
    detailedStatus: t.field({
      type: DetailedStatusEnum,
      description: 'The state of the run, for people (tool_call: waiting for the client).',
      resolve: (run) => run.detailedStatus as DetailedStatus,
    }),
    liveStatus: t.exposeString('liveStatus', { description: 'What the agent is doing now, for people.' }),
    toolCall: t.field({
      type: ToolCall,
      nullable: true,
      description: 'The caller-tool call the run waits on; null unless detailedStatus is tool_call.',
      resolve: (run, _args, ctx) =>
        run.status === 'running' && run.detailedStatus === 'tool_call' ? pendingToolCall(ctx.prisma, run.id) : null,
    }),
    output: t.field({
      type: 'JSON',
      nullable: true,
      description: "The agent's final answer (string or object).",
      resolve: (run) => parse(run.output),
    }),
    dataTable: t.field({ type: ['JSON'], description: 'Rows the agent extracted (objects).', resolve: (run) => JSON.parse(run.dataTable) }),
    error: t.exposeString('error', { nullable: true, description: 'Why the run failed or was stopped ("stopped").' }),
    createdAt: t.field({ type: 'DateTime', description: 'When the run was created.', resolve: (run) => run.createdAt }),
    startedAt: t.field({ type: 'DateTime', nullable: true, description: 'When a worker first took it.', resolve: (run) => run.startedAt }),
    finishedAt: t.field({ type: 'DateTime', nullable: true, description: 'When it ended.', resolve: (run) => run.finishedAt }),
    tokensUsed: t.int({
      description:
        "Tokens the LLM reported for the run so far (the sum of its steps'): with steps and startedAt/finishedAt, what the run cost.",
      resolve: async (run, _args, ctx) => (await usageOf(ctx, run.id)).tokens,
    }),
    costUsd: t.float({
      nullable: true,
      description: "What the run's tokens cost so far in USD, at the model's price in LLM_PRICES; null when it has none.",
      resolve: async (run, _args, ctx) => (await usageOf(ctx, run.id)).costUsd,
    }),
    steps: t.field({
      type: [TaskStep],
      description: 'The steps so far, in order.',
      resolve: async (run, _args, ctx) => (await listSteps(ctx.prisma, run.id)).map((step) => ({ ...step, run })),
    }),
    toolCalls: t.field({
      type: [ToolCall],
      description: 'Every caller-tool call of the run, in order.',
      resolve: (run, _args, ctx) => ctx.prisma.toolCall.findMany({ where: { runId: run.id }, orderBy: { createdAt: 'asc' } }),
    }),
    recording: t.field({
      type: TaskRecording,
      description: 'The animated recording of the run.',
      resolve: async (run, _args, ctx) => {
        if (await countScreenshots(ctx.prisma, run.id))
          return { status: 'completed', url: recordingUrl(ctx.config.siteUrl, run), error: null };
        if (UNFINISHED.includes(run.status as RunStatus)) return { status: 'scheduled', url: null, error: null };
        return { status: 'error', url: null, error: 'The run ended before any screenshot was taken.' };
      },
    }),
  }),
});

// node(nodeId): runs of the caller's own tasks, as taskRun answers them; anonymous callers have none.
nodeSource({
  typeName: 'TaskRun',
  ref: TaskRun,
  parseId: stringId,
  load: async (ctx, ids) => (ctx.viewer ? findRuns(ctx.prisma, ownerOf(ctx), ids as string[]) : []),
});

/** A run whose images the caller may see: by the share token of their URLs, or as the owner. */
export const TaskRunMedia = builder.objectRef<{ runId: string }>('TaskRunMedia').implement({
  description:
    "A run's images as base64, for clients that cannot follow the share URLs (Almanac's REST layer serves the bytes from these).",
  fields: (t) => ({
    gif: t.string({
      nullable: true,
      description: 'The animated GIF of the screenshots so far, base64; null while there is none.',
      resolve: async (media, _args, ctx) => (await buildRunGif(ctx.prisma, media.runId))?.toString('base64') ?? null,
    }),
    screenshot: t.string({
      nullable: true,
      description: "A step's PNG screenshot, base64; null when that step has none.",
      args: { index: t.arg.int({ required: true, description: 'The step number, from 1.' }) },
      resolve: async (media, args, ctx) =>
        args.index >= 1 ? ((await stepScreenshot(ctx.prisma, media.runId, args.index))?.toString('base64') ?? null) : null,
    }),
  }),
});

builder.queryFields((t) => ({
  taskRunMedia: t.field({
    type: TaskRunMedia,
    nullable: true,
    description:
      "A run's images, with the share token of their URLs or as the owner (runId, or the latest run, without a token). Null when the run is unknown or the token is wrong.",
    args: {
      ...runArgs(t, 'The run id (required with a token).'),
      token: t.arg.string({ description: 'The share token of a recording or screenshot URL.' }),
    },
    resolve: async (_root, args, ctx) => {
      const { taskId, runId } = runNamed(args);
      if (args.token != null) {
        const run = runId ? await runByToken(ctx.prisma, taskId, runId, args.token) : null;
        return run ? { runId: run.id } : null;
      }
      const run = await findRun(ctx.prisma, ownerOf(ctx), taskId, runId);
      return run ? { runId: run.id } : null;
    },
  }),
  taskRun: t.field({
    type: TaskRun,
    nullable: true,
    description: "A run of one of the caller's tasks: `runId`, or the latest run when it is omitted. Null when either is unknown.",
    args: runArgs(t),
    resolve: (_root, args, ctx) => {
      const { taskId, runId } = runNamed(args);
      return findRun(ctx.prisma, ownerOf(ctx), taskId, runId);
    },
  }),
}));

builder.mutationFields((t) => ({
  stopTaskRun: t.field({
    type: TaskRun,
    description: 'Stops a scheduled or running run: it ends with status error, error "stopped". CONFLICT when it already ended.',
    args: runArgs(t),
    resolve: (_root, args, ctx) => {
      const { taskId, runId } = runNamed(args);
      return stopRun(ctx.prisma, ownerOf(ctx), taskId, runId);
    },
  }),
  submitToolInput: t.field({
    type: TaskRun,
    description:
      'Answers the caller-tool call a run waits on; the run continues with the input as the tool result. CONFLICT when it is not waiting.',
    args: {
      ...runArgs(t),
      input: t.arg.string({ required: true, description: "The client's answer, as a string." }),
      toolCallId: t.arg.id({ description: 'When given, must be the id of the call the run waits on.' }),
    },
    resolve: (_root, args, ctx) =>
      submitToolInput(ctx.prisma, ownerOf(ctx), {
        ...runNamed(args),
        input: args.input,
        toolCallId: args.toolCallId == null ? null : String(args.toolCallId),
      }),
  }),
}));
