// Task: the type, its queries (tasks, task) and mutations (createTask, rerunTask, stopTask).
import { builder } from '../../graphql/builder.js';
import { listRuns } from '../runs.js';
import {
  checkPage,
  createTask,
  findTask,
  findTasks,
  listTasks,
  MAX_PAGE_SIZE,
  renameTask,
  rerunTask,
  stopTask,
  taskOptions,
} from '../tasks.js';
import { PROFILE_DOC } from '../profiles.js';
import { FILES_DOC } from '../files.js';
import { REPLAY_OF_DOC } from '../replay.js';
import { BUDGET_DOCS, MAX_TASK_NAME, readableName } from '../validation.js';
import { ensureWebhookSecret } from '../webhooks.js';
import type { Task as TaskRow, TaskRun as RunRow, WebhookDelivery as WebhookDeliveryRow } from '../../generated/sqlite/client.js';
import { AppError } from '../../graphql/errors.js';
import { NodeInterface, nodeIdField, nodeSource, stringId } from '../../graphql/node.js';
import { batchLoader, ownerOf } from './resolve.js';
import { TaskScheduleInput } from './schedule.js';
import { SCHEDULE_DOC } from '../cron.js';
import { DeliveryStatusEnum, PAGE_ARGS_DOC, Task, TaskRun, TaskStatusEnum, type ListShape } from './refs.js';

const TaskRunPage = builder.objectRef<ListShape<RunRow>>('TaskRunPage').implement({
  description: "One page of a task's runs, newest first.",
  fields: (t) => ({
    items: t.field({ type: [TaskRun], description: 'The runs on this page.', resolve: (p) => p.items }),
    total: t.exposeInt('total', { description: 'How many runs the task has.' }),
    page: t.exposeInt('page', { description: 'This page, from 1.' }),
    limit: t.exposeInt('limit', { description: 'The page size used.' }),
  }),
});

const TaskPage = builder.objectRef<ListShape<TaskRow>>('TaskPage').implement({
  description: "One page of the caller's tasks, newest first.",
  fields: (t) => ({
    items: t.field({ type: [Task], description: 'The tasks on this page.', resolve: (p) => p.items }),
    total: t.exposeInt('total', { description: 'How many tasks the caller has.' }),
    page: t.exposeInt('page', { description: 'This page, from 1.' }),
    limit: t.exposeInt('limit', { description: 'The page size used.' }),
  }),
});

const WebhookDelivery = builder.objectRef<WebhookDeliveryRow>('WebhookDelivery').implement({
  description: 'One webhook POST: an event of a run, sent until the receiver answers 2xx (retried with backoff).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The delivery id (header X-Almanac-Delivery).' }),
    runId: t.exposeID('runId', { description: 'The run the event is about.' }),
    event: t.exposeString('event', { description: 'tool_call, completed or error.' }),
    status: t.field({ type: DeliveryStatusEnum, description: 'Where the delivery stands.', resolve: (d) => d.status as 'pending' }),
    attempts: t.exposeInt('attempts', { description: 'POSTs made so far.' }),
    lastStatus: t.exposeInt('lastStatus', { nullable: true, description: "The receiver's last HTTP status (null: no answer)." }),
    lastError: t.exposeString('lastError', { description: 'Why the last attempt failed ("" when it did not).' }),
    body: t.field({ type: 'JSON', description: 'The JSON body sent.', resolve: (d) => JSON.parse(d.body) }),
    createdAt: t.field({ type: 'DateTime', description: 'When the event happened.', resolve: (d) => d.createdAt }),
    deliveredAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When the receiver accepted it.',
      resolve: (d) => d.deliveredAt,
    }),
  }),
});

Task.implement({
  description: 'A browser task: what to do in the browser, the caller tools the agent may call, and its runs.',
  interfaces: [NodeInterface],
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The task id.' }),
    nodeId: nodeIdField(t, 'Task'),
    task: t.exposeString('task', { description: 'The instructions, as given (trimmed).' }),
    name: t.exposeString('name', {
      nullable: true,
      description: `The name the owner gave the task (renameTask; at most ${MAX_TASK_NAME} characters); null when it has none.`,
    }),
    readableName: t.string({
      description: "A one-line name for lists: the task's name, or else the first line of its instructions, at most 80 characters.",
      resolve: (task) => readableName(task.task, task.name),
    }),
    agent: t.exposeString('agent', { description: 'The kind of agent; BROWSER_AGENT.' }),
    status: t.field({
      type: TaskStatusEnum,
      description: '"active", or "inactive" once stopped.',
      resolve: (task) => task.status as 'active',
    }),
    tools: t.field({
      type: ['JSON'],
      description: 'The caller tools (OpenAI-style function tools) the agent may call.',
      resolve: (task) => JSON.parse(task.tools),
    }),
    maxSteps: t.int({ description: 'Step budget of each run.', resolve: (task) => taskOptions(task).maxSteps }),
    timeoutSeconds: t.int({
      description: 'Time limit of each run, in seconds (time spent waiting for tool input not counted).',
      resolve: (task) => taskOptions(task).timeoutSeconds,
    }),
    startUrl: t.string({
      nullable: true,
      description: 'The page each run opens first, if one was given.',
      resolve: (task) => taskOptions(task).startUrl ?? null,
    }),
    replayOf: t.id({
      nullable: true,
      description: 'The completed run its runs replay without the LLM (replayOf on create); null: none.',
      resolve: (task) => taskOptions(task).replayOf ?? null,
    }),
    profile: t.string({
      nullable: true,
      description:
        'The browser profile (browserProfiles) its runs start with and save back to; null: each run starts with a fresh browser.',
      resolve: (task) => taskOptions(task).profile ?? null,
    }),
    maxTokens: t.int({
      nullable: true,
      description: 'Tokens each run may use (maxTokens); null: no limit of its own.',
      resolve: (task) => taskOptions(task).maxTokens ?? null,
    }),
    maxCostUsd: t.float({
      nullable: true,
      description: "USD each run's tokens may cost at the model's LLM_PRICES (maxCostUsd); null: no limit of its own.",
      resolve: (task) => taskOptions(task).maxCostUsd ?? null,
    }),
    webhookUrl: t.string({
      nullable: true,
      description: "Where run events are POSTed: the URL given at creation, or else the API key's default one at that time; null: nowhere.",
      resolve: (task) => task.webhookUrl ?? null,
    }),
    webhookDeliveries: t.field({
      type: [WebhookDelivery],
      description: "The task's webhook deliveries, newest first (at most 100): what was sent, and how the receiver answered.",
      resolve: (task, _args, ctx) =>
        ctx.prisma.webhookDelivery.findMany({ where: { taskId: task.id }, orderBy: { createdAt: 'desc' }, take: 100 }),
    }),
    createdAt: t.field({ type: 'DateTime', description: 'When the task was created.', resolve: (task) => task.createdAt }),
    latestRun: t.field({
      type: TaskRun,
      nullable: true,
      description: 'The most recent run.',
      resolve: async (task, _args, ctx) =>
        (await batchLoader(ctx, 'latestRun', async (taskIds: string[]) => {
          const runs = await ctx.prisma.taskRun.findMany({
            where: { taskId: { in: taskIds } },
            orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
          });
          const latest = new Map<string, (typeof runs)[number]>();
          for (const run of runs) if (!latest.has(run.taskId)) latest.set(run.taskId, run);
          return latest;
        })(task.id)) ?? null,
    }),
    runs: t.field({
      type: TaskRunPage,
      description: 'The runs of this task, newest first.',
      args: {
        page: t.arg.int({ defaultValue: 1, description: PAGE_ARGS_DOC.page }),
        limit: t.arg.int({ defaultValue: MAX_PAGE_SIZE, description: PAGE_ARGS_DOC.limit }),
      },
      resolve: async (task, args, ctx) => {
        const page = args.page ?? 1;
        const limit = args.limit ?? MAX_PAGE_SIZE;
        checkPage(page, limit);
        return { ...(await listRuns(ctx.prisma, task.id, page, limit)), page, limit };
      },
    }),
  }),
});

// node(nodeId): the caller's own tasks, as task(id) answers them; anonymous callers have none.
nodeSource({
  typeName: 'Task',
  ref: Task,
  parseId: stringId,
  load: async (ctx, ids) => (ctx.viewer ? findTasks(ctx.prisma, ownerOf(ctx), ids as string[]) : []),
});

builder.queryFields((t) => ({
  tasks: t.field({
    type: TaskPage,
    description: "The caller's browser tasks, newest first (needs an API key).",
    args: {
      page: t.arg.int({ defaultValue: 1, description: PAGE_ARGS_DOC.page }),
      limit: t.arg.int({ defaultValue: MAX_PAGE_SIZE, description: PAGE_ARGS_DOC.limit }),
    },
    resolve: async (_root, args, ctx) => {
      const page = args.page ?? 1;
      const limit = args.limit ?? MAX_PAGE_SIZE;
      checkPage(page, limit);
      return { ...(await listTasks(ctx.prisma, ownerOf(ctx), page, limit)), page, limit };
    },
  }),
  task: t.field({
    type: Task,
    nullable: true,
    description: "One of the caller's tasks; null when there is none with that id (another user's tasks included).",
    args: { id: t.arg.id({ required: true, description: 'The task id.' }) },
    resolve: (_root, args, ctx) => findTask(ctx.prisma, ownerOf(ctx), String(args.id)),
  }),
}));

const CreateTaskInput = builder.inputType('CreateTaskInput', {
  description: 'A new browser task. Only `task` is required.',
  fields: (t) => ({
    task: t.string({ required: true, description: 'What to do, in natural language: 1 to 10,000 characters after trimming.' }),
    name: t.string({
      description: `A name for lists (at most ${MAX_TASK_NAME} characters after trimming); default: the opening words of \`task\`.`,
    }),
    agent: t.string({ description: 'The kind of agent; only BROWSER_AGENT (the default) is accepted.' }),
    tools: t.field({
      type: ['JSON'],
      required: { list: false, items: false },
      description:
        'Caller tools, at most 32: {type: "function", function: {name, description?, parameters?: JSON Schema}}. Names match ^[A-Za-z0-9_-]{1,64}$, are unique, and are not built-in action names.',
    }),
    maxSteps: t.int({ description: 'Step budget of each run (default TASK_MAX_STEPS, 30).' }),
    timeoutSeconds: t.int({ description: 'Time limit of each run in seconds (default and maximum: TASK_RUN_TIMEOUT_MS).' }),
    startUrl: t.string({ description: 'An http(s) page to open before the first step.' }),
    maxTokens: t.int({ description: BUDGET_DOCS.maxTokens }),
    maxCostUsd: t.float({ description: BUDGET_DOCS.maxCostUsd }),
    webhookUrl: t.string({
      description:
        "An http(s) URL that receives a signed POST when a run waits for a tool's input, completes or fails (see webhookSecret). Default: the API key's default webhookUrl (setApiKeyWebhookUrl), if it has one.",
    }),
    outputSchema: t.field({
      type: 'JSON',
      description:
        "A JSON Schema (at most 20,000 characters) the agent's final answer must satisfy: it is told the schema, an answer that does not validate is sent back with the errors (twice at most), then the run fails. The validated value is the run's output.",
    }),
    profile: t.string({
      description: PROFILE_DOC,
    }),
    files: t.field({ type: ['JSON'], required: { list: false, items: true }, description: FILES_DOC }),
    replayOf: t.id({ description: REPLAY_OF_DOC }),
    schedule: t.field({
      type: TaskScheduleInput,
      description: `Runs the task on a schedule instead of now: no run starts at creation, the first at its first due time. ${SCHEDULE_DOC}`,
    }),
    secrets: t.field({
      type: 'JSON',
      description:
        'Values the agent types without seeing them: {name: "value"} (4 to 1,000 characters) or {name: {totp: "BASE32"}} for the current 6-digit TOTP code (RFC 6238); at most 20, names ^[A-Za-z0-9_-]{1,64}$. The model writes <secret:name> or <totp:name> as the text to type; values are masked in steps, outputs, logs and webhooks and never returned. Needs ALMANAC_SECRET_KEY: stored encrypted.',
    }),
  }),
});

builder.queryFields((t) => ({
  webhookSecret: t.string({
    description:
      "The secret that signs webhook deliveries of tasks created with the caller's API key (made on first use): verify X-Almanac-Signature = sha256=HMAC-SHA256(secret, X-Almanac-Timestamp + '.' + body).",
    resolve: (_root, _args, ctx) => {
      const owner = ownerOf(ctx);
      if (owner.keyId === undefined)
        throw new AppError('UNAUTHENTICATED', 'The webhook secret belongs to an API key: send one (header x-api-key).');
      return ensureWebhookSecret(ctx.prisma, owner.keyId);
    },
  }),
}));

builder.mutationFields((t) => ({
  createTask: t.field({
    type: Task,
    description: 'Stores a browser task and schedules its first run; answers at once, without waiting for the browser or the LLM.',
    args: { input: t.arg({ type: CreateTaskInput, required: true, description: 'The task.' }) },
    resolve: (_root, args, ctx) => createTask(ctx.prisma, ctx.config, ownerOf(ctx), args.input),
  }),
  rerunTask: t.field({
    type: TaskRun,
    description:
      'Runs the task again with the settings it was created with, and answers the new run; a stopped task becomes active again. Errors: NOT_FOUND, RATE_LIMITED (the run limits).',
    args: { id: t.arg.id({ required: true, description: 'The task id.' }) },
    resolve: (_root, args, ctx) => rerunTask(ctx.prisma, ctx.config, ownerOf(ctx), String(args.id)),
  }),
  renameTask: t.field({
    type: Task,
    description: `Names one of the caller's tasks (trimmed, at most ${MAX_TASK_NAME} characters); null or blank gives it back its default name (its opening words). Errors: NOT_FOUND (no such task of the caller's), INVALID_INPUT.`,
    args: {
      id: t.arg.id({ required: true, description: 'The task id.' }),
      name: t.arg.string({ description: 'The new name; null or blank: the default.' }),
    },
    resolve: (_root, args, ctx) => renameTask(ctx.prisma, ownerOf(ctx), String(args.id), args.name),
  }),
  stopTask: t.field({
    type: Task,
    description: 'Makes the task inactive and stops its unfinished runs.',
    args: { id: t.arg.id({ required: true, description: 'The task id.' }) },
    resolve: (_root, args, ctx) => stopTask(ctx.prisma, ownerOf(ctx), String(args.id)),
  }),
}));
