// The task API (/api/v1), one row per route in the route table's shape (rest/route-table.ts): its
// path, who may call it, its arguments, and the GraphQL operation it runs in-process with the
// shaping of the result into the spec's `data`. The router, the argument checks and the OpenAPI
// document derive from these rows. The two binary routes (recording GIF, step screenshot) answer
// bytes, which are not GraphQL's business beyond reading them.
import { PROFILE_DOC } from '../../tasks/profiles.js';
import { FILES_DOC } from '../../tasks/files.js';
import { REPLAY_OF_DOC } from '../../tasks/replay.js';
import { parse, validate } from 'graphql';
import { graphql, type TadaDocumentNode } from 'gql.tada';
import { sourceOf } from '../../graphql/documents.js';
import { enumValues } from '../../graphql/enum-values.js';
import { schema } from '../../graphql/schema.js';
import { AGENTS, BUDGET_DOCS } from '../../tasks/validation.js';
import { escapeRegex, ok, type ArgSpec, type Args, type HttpMethod, type RestResult } from '../route-table.js';
import { taskError } from './http.js';
import type { TaskEndpoint, TaskRequest, TaskRoute } from './endpoint.js';
import { taskOpenApi } from './openapi.js';
import { SCHEDULE_DOC } from '../../tasks/cron.js';

type Schema = Record<string, unknown>;

/** Success in the spec's envelope: {success: true, data, ...extra}. */
const envelope = (data: unknown, extra?: Record<string, unknown>): RestResult => ok({ success: true, data, ...extra });
const bytes = (buffer: Buffer, contentType: string, headers: Record<string, string> = {}): RestResult => ({
  status: 200,
  body: buffer,
  headers: { 'Content-Type': contentType, 'Cache-Control': 'no-cache', ...headers },
});

/** A handler that runs one GraphQL operation as the caller and shapes its data; the operation is
 *  validated against the schema when the table loads, at start-up. */
function runs<Data, Variables>(
  operation: TadaDocumentNode<Data, Variables>,
  variables: (req: TaskRequest) => Record<string, unknown>,
  reply: (data: Data, req: TaskRequest) => RestResult,
) {
  const errors = validate(schema, parse(sourceOf(operation)));
  if (errors.length) throw new Error(`task API: invalid operation: ${errors.map((e) => e.message).join('; ')}\n${sourceOf(operation)}`);
  return { handler: async (req: TaskRequest) => reply(await req.graphql(operation, variables(req)), req) };
}

/** A one-endpoint route; `:name` in the path is a parameter (one path segment, or its part before a suffix). */
function route(method: HttpMethod, path: string, summary: string, endpoint: Omit<TaskEndpoint, 'methods' | 'doc'>): TaskRoute {
  const regex = path
    .split(/(:[A-Za-z]+)/)
    .map((part) => (part.startsWith(':') ? `(?P<${part.slice(1)}>[^/]+?)` : escapeRegex(part)))
    .join('');
  return {
    path: regex,
    docPath: path.replace(/:(\w+)/g, '{$1}'),
    endpoints: [{ methods: [method], doc: { summary, responses: {} }, ...endpoint }],
  };
}

const string: Schema = { type: 'string' };
const nullableString: Schema = { type: ['string', 'null'] };
/** A closed set's values, as the GraphQL schema declares them (one list for both APIs). */
const oneOf = (enumName: string): Schema => ({ type: 'string', enum: enumValues(enumName) });
const object = (properties: Record<string, Schema>): Schema => ({ type: 'object', properties, required: Object.keys(properties) });
const paged = (item: Schema) => ({
  data: { type: 'array', items: item },
  extra: { total: { type: 'integer' }, page: { type: 'integer' }, limit: { type: 'integer' } },
});
const done = { data: { type: 'null' } };

const runId: ArgSpec = { type: 'string', description: 'The run id (default: the latest run of the task).', in: 'query' };
const pageArgs: Args = {
  page: { type: 'integer', minimum: 1, default: 1, description: 'The page, from 1.' },
  limit: { type: 'integer', minimum: 1, maximum: 30, default: 30, description: 'Items per page, at most 30.' },
};
const runVariables = ({ params, query }: TaskRequest) => ({ taskId: params.taskId, runId: query.runId ?? null });

/** The run of a `{task {id} taskRun {…}}` result, or a 404 naming what is missing. */
function foundRun<Run>(data: { task: unknown; taskRun: Run | null }, { params, query }: TaskRequest): Run {
  if (!data.task) throw taskError(404, `No task with id "${params.taskId}".`);
  if (!data.taskRun) throw taskError(404, query.runId ? `No run "${query.runId}" in task "${params.taskId}".` : 'The task has no runs.');
  return data.taskRun;
}

/** A Content-Disposition naming the file: an ASCII fallback and the exact name (RFC 6266). */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const RUN_GIF = graphql(
  `query RunGifBytes($taskId: ID!, $runId: ID, $token: String) { taskRunMedia(taskId: $taskId, runId: $runId, token: $token) { gif } }`,
);
const RUN_TRACE = graphql(
  `query RunTrace($taskId: ID!, $runId: ID, $token: String) { taskRunMedia(taskId: $taskId, runId: $runId, token: $token) { trace traceAbsence } }`,
);
const RUN_SCREENSHOT = graphql(
  `query RunScreenshot($taskId: ID!, $runId: ID, $token: String, $index: Int!) { taskRunMedia(taskId: $taskId, runId: $runId, token: $token) { screenshot(index: $index) } }`,
);

/** The images of the run a binary route serves: by share token (for <img> tags), or by the owner's key. */
async function binaryRun<Media, Variables>(
  req: TaskRequest,
  operation: TadaDocumentNode<{ taskRunMedia: Media | null }, Variables>,
  variables: Record<string, unknown>,
): Promise<Media> {
  const { taskId } = req.params;
  if (req.query.token) {
    if (!req.query.runId) throw taskError(400, 'runId is required with token');
  } else if (!req.hasKey) {
    throw taskError(401, 'Send the token of the recording URL, or an API key (header x-api-key).');
  }
  const data = await req.graphql(operation, { taskId, runId: req.query.runId ?? null, token: req.query.token ?? null, ...variables });
  if (!data.taskRunMedia) {
    throw taskError(404, req.query.token ? 'No such recording (unknown run or wrong token).' : 'No such task or run.');
  }
  return data.taskRunMedia;
}

const dateTime: Schema = { type: 'string', format: 'date-time' };
const scheduleAnswer = {
  data: {
    oneOf: [
      { type: 'null', description: 'The task has no schedule.' },
      object({
        cron: string,
        timeZone: string,
        paused: { type: 'boolean' },
        nextRunAt: { type: ['string', 'null'], format: 'date-time', description: 'Null while paused.' },
        nextRunTimes: { type: 'array', items: dateTime, description: 'The next 5 times it starts a run (none while paused).' },
        occurrences: {
          type: 'array',
          description: 'What became of its last 20 due times, newest first.',
          items: object({
            dueAt: dateTime,
            outcome: oneOf('TaskScheduleOutcome'),
            runId: nullableString,
            reason: nullableString,
            at: dateTime,
          }),
        },
      }),
    ],
  },
};

/** The task's schedule as the answer's data (null: none), or a 404 when the caller has no such task. */
function scheduleOfTask<Field extends string>(field: Field) {
  return (data: Record<Field, { schedule: unknown } | null>, { params }: TaskRequest) => {
    const task = data[field];
    if (!task) throw taskError(404, `No task with id "${params.taskId}".`);
    return envelope(task.schedule);
  };
}

const SCHEDULE_OF_TASK = graphql(`
  fragment ScheduleOfTask on Task {
    schedule { cron timeZone paused nextRunAt nextRunTimes(count: 5) occurrences(first: 20) { dueAt outcome runId reason at } }
  }
`);
const TASK_SCHEDULE = graphql(`query TaskSchedule($taskId: ID!) { task(id: $taskId) { ...ScheduleOfTask } }`, [SCHEDULE_OF_TASK]);
const SET_TASK_SCHEDULE = graphql(
  `mutation SetTaskSchedule($taskId: ID!, $schedule: TaskScheduleInput!) { setTaskSchedule(id: $taskId, schedule: $schedule) { ...ScheduleOfTask } }`,
  [SCHEDULE_OF_TASK],
);
const REMOVE_TASK_SCHEDULE = graphql(`mutation RemoveTaskSchedule($taskId: ID!) { setTaskSchedule(id: $taskId, schedule: null) { id } }`);
const PAUSE_TASK_SCHEDULE = graphql(`mutation PauseTaskSchedule($taskId: ID!) { pauseTaskSchedule(id: $taskId) { ...ScheduleOfTask } }`, [
  SCHEDULE_OF_TASK,
]);
const RESUME_TASK_SCHEDULE = graphql(
  `mutation ResumeTaskSchedule($taskId: ID!) { resumeTaskSchedule(id: $taskId) { ...ScheduleOfTask } }`,
  [SCHEDULE_OF_TASK],
);

/** /task/{taskId}/schedule (read, set, remove) and its pause and resume: documented additions to the spec's API. */
function scheduleRoutes(): TaskRoute[] {
  const taskId = ({ params }: TaskRequest) => ({ taskId: params.taskId });
  const read = route(
    'GET',
    '/task/:taskId/schedule',
    "The task's schedule: pattern, time zone, paused, next run times and what became of its last due times (null: none).",
    {
      auth: 'key',
      ...runs(TASK_SCHEDULE, taskId, scheduleOfTask('task')),
      answer: scheduleAnswer,
    },
  );
  const set = route('POST', '/task/:taskId/schedule', `Sets the task's schedule (due next from now, not paused). ${SCHEDULE_DOC}`, {
    auth: 'key',
    args: {
      cron: {
        type: 'string',
        required: true,
        description: '5 cron fields (minute hour day-of-month month day-of-week) or @daily, @hourly, @weekly, @monthly, @yearly.',
      },
      timeZone: { type: 'string', description: 'An IANA time zone name (default "UTC").' },
    },
    ...runs(
      SET_TASK_SCHEDULE,
      ({ params, body }) => ({ taskId: params.taskId, schedule: { cron: body.cron, timeZone: body.timeZone ?? null } }),
      scheduleOfTask('setTaskSchedule'),
    ),
    answer: scheduleAnswer,
  });
  const remove = route('DELETE', '/task/:taskId/schedule', "Removes the task's schedule; its runs so far stay.", {
    auth: 'key',
    ...runs(REMOVE_TASK_SCHEDULE, taskId, () => envelope(null)),
    answer: done,
  });
  read.endpoints.push(...set.endpoints, ...remove.endpoints);
  const toggle = (verb: 'pause' | 'resume', summary: string, handler: ReturnType<typeof runs>) =>
    route('PUT', `/task/:taskId/schedule/${verb}`, summary, { auth: 'key', ...handler, answer: scheduleAnswer });
  return [
    read,
    toggle(
      'pause',
      'Pauses the schedule: no run starts until it is resumed (409 when the task has no schedule).',
      runs(PAUSE_TASK_SCHEDULE, taskId, scheduleOfTask('pauseTaskSchedule')),
    ),
    toggle(
      'resume',
      'Resumes the schedule: due next from now; times missed while paused are not made up.',
      runs(RESUME_TASK_SCHEDULE, taskId, scheduleOfTask('resumeTaskSchedule')),
    ),
  ];
}

export const TASK_ROUTES: TaskRoute[] = [
  route('GET', '/openapi.json', 'This API described in OpenAPI 3.1; needs no key.', {
    auth: 'none',
    handler: () => ok(taskOpenApi(TASK_ROUTES)),
  }),
  route('GET', '/health', 'Liveness; needs no key.', { auth: 'none', handler: () => ok({ success: true }) }),
  route('GET', '/webhook/secret', 'The secret that signs the webhook deliveries of tasks created with this key: {secret}.', {
    auth: 'key',
    ...runs(
      graphql(`query WebhookSecret { webhookSecret }`),
      () => ({}),
      (data) => envelope({ secret: data.webhookSecret }),
    ),
    answer: { data: object({ secret: string }) },
  }),
  route('GET', '/check', '"ok" when the API key is valid.', {
    auth: 'key',
    handler: () => envelope('ok'),
    answer: { data: { const: 'ok' } },
  }),
  route('POST', '/task/create', 'Stores a task and schedules its first run; answers {taskId} at once.', {
    auth: 'key',
    takesFiles: true,
    args: {
      task: { type: 'string', required: true, description: 'What to do: 1 to 10,000 characters after trimming.' },
      name: {
        type: 'string',
        description: 'A name for lists (readable_name; at most 120 characters). Default: the opening words of task.',
      },
      agent: { type: 'string', enum: AGENTS, description: 'The kind of agent (default BROWSER_AGENT).' },
      tools: { type: 'array', items: {}, description: 'OpenAI-style function tools the agent may call (at most 32).' },
      maxSteps: { type: 'integer', description: 'Step budget of each run (default 30).' },
      timeoutSeconds: { type: 'integer', description: 'Time limit of each run, in seconds.' },
      startUrl: { type: 'string', description: 'An http(s) page to open before the first step.' },
      maxTokens: { type: 'integer', description: BUDGET_DOCS.maxTokens },
      maxCostUsd: { type: 'number', description: BUDGET_DOCS.maxCostUsd },
      webhookUrl: {
        type: 'string',
        description:
          "An http(s) URL that receives a signed POST when a run waits for a tool's input, completes or fails. Default: the API key's default webhook URL, if it has one.",
      },
      outputSchema: {
        type: 'object',
        description:
          "A JSON Schema (at most 20,000 characters) the agent's final answer must satisfy: it is told the schema, an answer that does not validate is sent back with the errors (twice at most), then the run fails. The validated value is the run's output.",
      },
      profile: { type: 'string', description: PROFILE_DOC },
      files: { type: 'array', items: { type: 'object' }, description: FILES_DOC },
      replayOf: { type: 'string', description: REPLAY_OF_DOC },
      schedule: {
        type: 'object',
        description: `Runs the task on a schedule instead of now: no run starts at creation, the first at its first due time (see /task/{taskId}/schedule). ${SCHEDULE_DOC}`,
      },
      secrets: {
        type: 'object',
        description:
          'Values the agent types without seeing them: {name: "value"} (4 to 1,000 characters) or {name: {totp: "BASE32"}} for the current 6-digit TOTP code; at most 20, names ^[A-Za-z0-9_-]{1,64}$. The model writes <secret:name> or <totp:name>; values are masked in everything recorded and never returned. Needs ALMANAC_SECRET_KEY (stored encrypted).',
      },
    },
    ...runs(
      graphql(`mutation CreateTask($input: CreateTaskInput!) { createTask(input: $input) { id } }`),
      ({ body }) => ({ input: body }),
      (data) => envelope({ taskId: data.createTask.id }),
    ),
    answer: { data: object({ taskId: string }) },
  }),
  route('GET', '/tasks', "The caller's tasks, newest first.", {
    auth: 'key',
    args: pageArgs,
    ...runs(
      graphql(
        `query Tasks($page: Int!, $limit: Int!) { tasks(page: $page, limit: $limit) { total page limit items { id status readableName } } }`,
      ),
      ({ query }) => ({ page: query.page, limit: query.limit }),
      ({ tasks }) =>
        envelope(
          tasks.items.map((t) => ({ id: t.id, status: t.status, readable_name: t.readableName })),
          { total: tasks.total, page: tasks.page, limit: tasks.limit },
        ),
    ),
    answer: paged(object({ id: string, status: oneOf('TaskStatus'), readable_name: string })),
  }),
  route('GET', '/task/:taskId/runs', "The task's runs, newest first.", {
    auth: 'key',
    args: pageArgs,
    ...runs(
      graphql(
        `query Runs($taskId: ID!, $page: Int!, $limit: Int!) { task(id: $taskId) { runs(page: $page, limit: $limit) { total page limit items { id createdAt } } } }`,
      ),
      ({ params, query }) => ({ taskId: params.taskId, page: query.page, limit: query.limit }),
      ({ task }, { params }) => {
        if (!task) throw taskError(404, `No task with id "${params.taskId}".`);
        const { runs } = task;
        return envelope(
          runs.items.map((r) => ({ id: r.id, created_at: r.createdAt })),
          { total: runs.total, page: runs.page, limit: runs.limit },
        );
      },
    ),
    answer: paged(object({ id: string, created_at: { type: 'string', format: 'date-time' } })),
  }),
  route('GET', '/task/:taskId/run/status', 'Where the run is: status, detailedStatus, the tool call it waits on, liveStatus.', {
    auth: 'key',
    args: { runId },
    ...runs(
      graphql(
        `query RunStatus($taskId: ID!, $runId: ID) { task(id: $taskId) { id } taskRun(taskId: $taskId, runId: $runId) { status detailedStatus liveStatus toolCall { id name parameters } } }`,
      ),
      runVariables,
      (data, req) => {
        const run = foundRun(data, req);
        const toolCall = run.toolCall && {
          toolCallId: run.toolCall.id,
          tool: { name: run.toolCall.name, parameters: run.toolCall.parameters },
        };
        return envelope({ status: run.status, detailedStatus: run.detailedStatus, toolCall: toolCall ?? null, liveStatus: run.liveStatus });
      },
    ),
    answer: {
      data: object({
        status: oneOf('TaskRunStatus'),
        detailedStatus: oneOf('TaskRunDetailedStatus'),
        toolCall: {
          oneOf: [
            { type: 'null' },
            object({ toolCallId: string, tool: object({ name: string, parameters: { description: 'The arguments the model gave.' } }) }),
          ],
        },
        liveStatus: nullableString,
      }),
    },
  }),
  route('GET', '/task/:taskId/run/result', "The outcome: status, error, output, dataTable, and the run's LLM usage.", {
    auth: 'key',
    args: { runId },
    ...runs(
      graphql(
        `query RunResult($taskId: ID!, $runId: ID) { task(id: $taskId) { id } taskRun(taskId: $taskId, runId: $runId) { status error output dataTable tokensUsed costUsd downloads { id name size sha256 url } } }`,
      ),
      runVariables,
      (data, req) => {
        const run = foundRun(data, req);
        const usage = { tokens: run.tokensUsed, costUsd: run.costUsd };
        const { status, error, output, dataTable, downloads } = run;
        return envelope({ status, error, output, dataTable, usage, downloads });
      },
    ),
    answer: {
      data: object({
        status: oneOf('TaskRunStatus'),
        error: nullableString,
        output: nullableString,
        dataTable: { type: 'array', items: { type: 'object' } },
        usage: object({
          tokens: { type: 'integer', description: 'Tokens the LLM reported for the run.' },
          costUsd: { type: ['number', 'null'], description: 'What they cost in USD at LLM_PRICES; null: the model has no price.' },
        }),
        downloads: {
          type: 'array',
          description: "The files the run's browser downloaded, oldest first; GET url (with the API key) for the bytes.",
          items: object({ id: string, name: string, size: { type: 'integer' }, sha256: string, url: string }),
        },
      }),
    },
  }),
  route(
    'GET',
    '/task/:taskId/run/downloads/:downloadId',
    "A file a run of the task downloaded (as an attachment): the owner's API key only.",
    {
      auth: 'key',
      handler: async ({ params, graphql: run }) => {
        const data = await run(
          graphql(`query Download($taskId: ID!, $id: ID!) { task(id: $taskId) { download(id: $id) { name contentBase64 } } }`),
          {
            taskId: params.taskId,
            id: params.downloadId,
          },
        );
        if (!data.task) throw taskError(404, `No task with id "${params.taskId}".`);
        const file = data.task.download;
        if (!file) throw taskError(404, `No download "${params.downloadId}" in task "${params.taskId}".`);
        // Never the site's own type: a downloaded page served from this origin must not run here.
        return bytes(Buffer.from(file.contentBase64, 'base64'), 'application/octet-stream', {
          'Content-Disposition': attachment(file.name),
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': "sandbox; default-src 'none'",
          'Cache-Control': 'private, no-cache',
        });
      },
    },
  ),
  route('POST', '/task/:taskId/run/tool-input', 'Answers the tool call the run waits on; the run continues.', {
    auth: 'key',
    args: {
      runId,
      input: { type: 'string', required: true, description: "The client's answer." },
      toolCallId: { type: 'string', description: 'When given, must be the id of the waiting call.' },
    },
    ...runs(
      graphql(
        `mutation ToolInput($taskId: ID!, $runId: ID, $input: String!, $toolCallId: ID) { submitToolInput(taskId: $taskId, runId: $runId, input: $input, toolCallId: $toolCallId) { id } }`,
      ),
      (req) => ({ ...runVariables(req), input: req.body.input, toolCallId: req.body.toolCallId ?? null }),
      () => envelope(null),
    ),
    answer: done,
  }),
  route('PUT', '/task/:taskId/run/stop', 'Stops the run: it ends with status error, error "stopped".', {
    auth: 'key',
    args: { runId },
    ...runs(
      graphql(`mutation StopRun($taskId: ID!, $runId: ID) { stopTaskRun(taskId: $taskId, runId: $runId) { id } }`),
      runVariables,
      () => envelope(null),
    ),
    answer: done,
  }),
  route('PUT', '/task/:taskId/stop', 'Makes the task inactive and stops its unfinished runs.', {
    auth: 'key',
    ...runs(
      graphql(`mutation StopTask($taskId: ID!) { stopTask(id: $taskId) { id } }`),
      ({ params }) => ({ taskId: params.taskId }),
      () => envelope(null),
    ),
    answer: done,
  }),
  ...scheduleRoutes(),
  route('GET', '/task/:taskId/run/gif', "Where the run's animated recording is: {status, url, error}.", {
    auth: 'key',
    args: { runId },
    ...runs(
      graphql(
        `query RunGif($taskId: ID!, $runId: ID) { task(id: $taskId) { id } taskRun(taskId: $taskId, runId: $runId) { recording { status url error } } }`,
      ),
      runVariables,
      (data, req) => envelope(foundRun(data, req).recording),
    ),
    answer: { data: object({ status: oneOf('TaskRecordingStatus'), url: nullableString, error: nullableString }) },
  }),
  route('GET', '/task/:taskId/run/gif.gif', 'The recording itself (image/gif): with the token of its URL, or an API key.', {
    auth: 'token',
    args: { runId, token: { type: 'string', description: 'The share token from the recording URL.' } },
    handler: async (req) => {
      const { gif } = await binaryRun(req, RUN_GIF, {});
      if (!gif) throw taskError(404, 'The run has no screenshots yet.');
      return bytes(Buffer.from(gif, 'base64'), 'image/gif');
    },
  }),
  route('GET', '/task/:taskId/run/trace', "The run's Playwright trace (application/zip): with the token of its traceUrl, or an API key.", {
    auth: 'token',
    args: { runId, token: { type: 'string', description: 'The share token from the traceUrl.' } },
    handler: async (req) => {
      const media = await binaryRun(req, RUN_TRACE, {});
      if (!media.trace) throw taskError(404, media.traceAbsence ?? 'The run has no trace.');
      return bytes(Buffer.from(media.trace, 'base64'), 'application/zip', {
        'Content-Disposition': attachment(`trace-${req.query.runId ?? req.params.taskId}.zip`),
        'Cache-Control': 'private, no-cache',
      });
    },
  }),
  route('GET', '/task/:taskId/run/step/:index.png', "A step's screenshot (image/png): with the token of its URL, or an API key.", {
    auth: 'token',
    args: { runId, token: { type: 'string', description: 'The share token from the screenshot URL.' } },
    handler: async (req) => {
      const index = Number(req.params.index);
      if (!Number.isSafeInteger(index) || index < 1) throw taskError(400, 'index must be a step number from 1');
      const { screenshot: png } = await binaryRun(req, RUN_SCREENSHOT, { index });
      if (!png) throw taskError(404, `Step ${index} has no screenshot.`);
      return bytes(Buffer.from(png, 'base64'), 'image/png');
    },
  }),
];
