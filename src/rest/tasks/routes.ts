// The task API (/api/v1), one row per route: method, path, who may call it, its arguments, and the
// GraphQL operation it runs in-process with the shaping of the result into the spec's `data`.
// The two binary routes (recording GIF, step screenshot) read the domain directly: bytes are not
// GraphQL's business.
import { AGENTS } from '../../tasks/validation.js';
import { HttpError, type ArgSpec } from './http.js';
import { enumValues, taskOpenApi } from './openapi.js';

export interface RouteArgs {
  params: Record<string, string>;
  query: Record<string, any>;
  body: Record<string, any>;
}

export type Reply =
  | { data: unknown; extra?: Record<string, unknown> } // the envelope {success: true, data, ...extra}
  | { body: unknown } // a body as is
  | { bytes: Buffer; contentType: string };

export interface RouteServices {
  /** Runs a GraphQL operation as the caller; the `data` of a successful result. */
  query(source: string, variables: Record<string, unknown>): Promise<any>;
  hasKey: boolean;
}

export interface TaskRoute {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  description: string;
  /** key: an API key is required; none: public; token: the run's share token, or the owner's key. */
  auth: 'key' | 'none' | 'token';
  query?: Record<string, ArgSpec>;
  body?: Record<string, ArgSpec>;
  operation?: string;
  variables?: (args: RouteArgs) => Record<string, unknown>;
  reply?: (data: any, args: RouteArgs) => Reply;
  handle?: (args: RouteArgs, services: RouteServices) => Promise<Reply>;
  /** What a success answers, for the OpenAPI document: the JSON Schema of `data`, and of the
   *  envelope's other keys. Absent: the route answers bytes, or a body of its own. */
  answer?: { data: Schema; extra?: Record<string, Schema> };
}

type Schema = Record<string, unknown>;
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

const runId: ArgSpec = { type: 'string', description: 'The run id (default: the latest run of the task).' };
const pageArgs: Record<string, ArgSpec> = {
  page: { type: 'integer', min: 1, default: 1, description: 'The page, from 1.' },
  limit: { type: 'integer', min: 1, max: 30, default: 30, description: 'Items per page, at most 30.' },
};
const runVariables = ({ params, query }: RouteArgs) => ({ taskId: params.taskId, runId: query.runId ?? null });

/** The run of a `{task {id} taskRun {…}}` result, or a 404 naming what is missing. */
function foundRun(data: any, args: RouteArgs): any {
  if (!data.task) throw new HttpError(404, `No task with id "${args.params.taskId}".`);
  if (!data.taskRun)
    throw new HttpError(404, args.query.runId ? `No run "${args.query.runId}" in task "${args.params.taskId}".` : 'The task has no runs.');
  return data.taskRun;
}

/** The images of the run a binary route serves: by share token (for <img> tags), or by the owner's key. */
async function binaryRun(
  args: RouteArgs,
  services: RouteServices,
  field: string,
  variables: Record<string, unknown>,
): Promise<Record<string, string | null>> {
  const { taskId } = args.params;
  if (args.query.token) {
    if (!args.query.runId) throw new HttpError(400, 'runId is required with token');
  } else if (!services.hasKey) {
    throw new HttpError(401, 'Send the token of the recording URL, or an API key (header x-api-key).');
  }
  const extra = 'index' in variables ? ', $index: Int!' : '';
  const data = await services.query(
    `query RunMedia($taskId: ID!, $runId: ID, $token: String${extra}) { taskRunMedia(taskId: $taskId, runId: $runId, token: $token) { ${field} } }`,
    { taskId, runId: args.query.runId ?? null, token: args.query.token ?? null, ...variables },
  );
  if (!data.taskRunMedia) {
    throw new HttpError(404, args.query.token ? 'No such recording (unknown run or wrong token).' : 'No such task or run.');
  }
  return data.taskRunMedia;
}

export const TASK_ROUTES: TaskRoute[] = [
  {
    method: 'GET',
    path: '/openapi.json',
    description: 'This API described in OpenAPI 3.1; needs no key.',
    auth: 'none',
    handle: async () => ({ body: taskOpenApi(TASK_ROUTES) }),
  },
  {
    method: 'GET',
    path: '/health',
    description: 'Liveness; needs no key.',
    auth: 'none',
    handle: async () => ({ body: { success: true } }),
  },
  {
    method: 'GET',
    path: '/webhook/secret',
    description: 'The secret that signs the webhook deliveries of tasks created with this key: {secret}.',
    auth: 'key',
    operation: `query WebhookSecret { webhookSecret }`,
    variables: () => ({}),
    reply: (data) => ({ data: { secret: data.webhookSecret } }),
    answer: { data: object({ secret: string }) },
  },
  {
    method: 'GET',
    path: '/check',
    description: '"ok" when the API key is valid.',
    auth: 'key',
    handle: async () => ({ data: 'ok' }),
    answer: { data: { const: 'ok' } },
  },
  {
    method: 'POST',
    path: '/task/create',
    description: 'Stores a task and schedules its first run; answers {taskId} at once.',
    auth: 'key',
    body: {
      task: { type: 'string', required: true, description: 'What to do: 1 to 10,000 characters after trimming.' },
      name: {
        type: 'string',
        description: 'A name for lists (readable_name; at most 120 characters). Default: the opening words of task.',
      },
      agent: { type: 'string', enum: AGENTS, description: 'The kind of agent (default BROWSER_AGENT).' },
      tools: { type: 'array', description: 'OpenAI-style function tools the agent may call (at most 32).' },
      maxSteps: { type: 'integer', description: 'Step budget of each run (default 30).' },
      timeoutSeconds: { type: 'integer', description: 'Time limit of each run, in seconds.' },
      startUrl: { type: 'string', description: 'An http(s) page to open before the first step.' },
      webhookUrl: {
        type: 'string',
        description:
          "An http(s) URL that receives a signed POST when a run waits for a tool's input, completes or fails. Default: the API key's default webhook URL, if it has one.",
      },
    },
    operation: `mutation CreateTask($input: CreateTaskInput!) { createTask(input: $input) { id } }`,
    variables: ({ body }) => ({ input: body }),
    reply: (data) => ({ data: { taskId: data.createTask.id } }),
    answer: { data: object({ taskId: string }) },
  },
  {
    method: 'GET',
    path: '/tasks',
    description: "The caller's tasks, newest first.",
    auth: 'key',
    query: pageArgs,
    operation: `query Tasks($page: Int!, $limit: Int!) { tasks(page: $page, limit: $limit) { total page limit items { id status readableName } } }`,
    variables: ({ query }) => ({ page: query.page, limit: query.limit }),
    reply: ({ tasks }) => ({
      data: tasks.items.map((t: any) => ({ id: t.id, status: t.status, readable_name: t.readableName })),
      extra: { total: tasks.total, page: tasks.page, limit: tasks.limit },
    }),
    answer: paged(object({ id: string, status: oneOf('TaskStatus'), readable_name: string })),
  },
  {
    method: 'GET',
    path: '/task/:taskId/runs',
    description: "The task's runs, newest first.",
    auth: 'key',
    query: pageArgs,
    operation: `query Runs($taskId: ID!, $page: Int!, $limit: Int!) { task(id: $taskId) { runs(page: $page, limit: $limit) { total page limit items { id createdAt } } } }`,
    variables: ({ params, query }) => ({ taskId: params.taskId, page: query.page, limit: query.limit }),
    reply: ({ task }, { params }) => {
      if (!task) throw new HttpError(404, `No task with id "${params.taskId}".`);
      const { runs } = task;
      return {
        data: runs.items.map((r: any) => ({ id: r.id, created_at: r.createdAt })),
        extra: { total: runs.total, page: runs.page, limit: runs.limit },
      };
    },
    answer: paged(object({ id: string, created_at: { type: 'string', format: 'date-time' } })),
  },
  {
    method: 'GET',
    path: '/task/:taskId/run/status',
    description: 'Where the run is: status, detailedStatus, the tool call it waits on, liveStatus.',
    auth: 'key',
    query: { runId },
    operation: `query RunStatus($taskId: ID!, $runId: ID) { task(id: $taskId) { id } taskRun(taskId: $taskId, runId: $runId) { status detailedStatus liveStatus toolCall { id name parameters } } }`,
    variables: runVariables,
    reply: (data, args) => {
      const run = foundRun(data, args);
      const toolCall = run.toolCall && {
        toolCallId: run.toolCall.id,
        tool: { name: run.toolCall.name, parameters: run.toolCall.parameters },
      };
      return { data: { status: run.status, detailedStatus: run.detailedStatus, toolCall: toolCall ?? null, liveStatus: run.liveStatus } };
    },
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
  },
  {
    method: 'GET',
    path: '/task/:taskId/run/result',
    description: 'The outcome: status, error, output, dataTable.',
    auth: 'key',
    query: { runId },
    operation: `query RunResult($taskId: ID!, $runId: ID) { task(id: $taskId) { id } taskRun(taskId: $taskId, runId: $runId) { status error output dataTable } }`,
    variables: runVariables,
    reply: (data, args) => {
      const run = foundRun(data, args);
      return { data: { status: run.status, error: run.error, output: run.output, dataTable: run.dataTable } };
    },
    answer: {
      data: object({
        status: oneOf('TaskRunStatus'),
        error: nullableString,
        output: nullableString,
        dataTable: { type: 'array', items: { type: 'object' } },
      }),
    },
  },
  {
    method: 'POST',
    path: '/task/:taskId/run/tool-input',
    description: 'Answers the tool call the run waits on; the run continues.',
    auth: 'key',
    query: { runId },
    body: {
      input: { type: 'string', required: true, description: "The client's answer." },
      toolCallId: { type: 'string', description: 'When given, must be the id of the waiting call.' },
    },
    operation: `mutation ToolInput($taskId: ID!, $runId: ID, $input: String!, $toolCallId: ID) { submitToolInput(taskId: $taskId, runId: $runId, input: $input, toolCallId: $toolCallId) { id } }`,
    variables: (args) => ({ ...runVariables(args), input: args.body.input, toolCallId: args.body.toolCallId ?? null }),
    reply: () => ({ data: null }),
    answer: done,
  },
  {
    method: 'PUT',
    path: '/task/:taskId/run/stop',
    description: 'Stops the run: it ends with status error, error "stopped".',
    auth: 'key',
    query: { runId },
    operation: `mutation StopRun($taskId: ID!, $runId: ID) { stopTaskRun(taskId: $taskId, runId: $runId) { id } }`,
    variables: runVariables,
    reply: () => ({ data: null }),
    answer: done,
  },
  {
    method: 'PUT',
    path: '/task/:taskId/stop',
    description: 'Makes the task inactive and stops its unfinished runs.',
    auth: 'key',
    operation: `mutation StopTask($taskId: ID!) { stopTask(id: $taskId) { id } }`,
    variables: ({ params }) => ({ taskId: params.taskId }),
    reply: () => ({ data: null }),
    answer: done,
  },
  {
    method: 'GET',
    path: '/task/:taskId/run/gif',
    description: "Where the run's animated recording is: {status, url, error}.",
    auth: 'key',
    query: { runId },
    operation: `query RunGif($taskId: ID!, $runId: ID) { task(id: $taskId) { id } taskRun(taskId: $taskId, runId: $runId) { recording { status url error } } }`,
    variables: runVariables,
    reply: (data, args) => ({ data: foundRun(data, args).recording }),
    answer: { data: object({ status: oneOf('TaskRecordingStatus'), url: nullableString, error: nullableString }) },
  },
  {
    method: 'GET',
    path: '/task/:taskId/run/gif.gif',
    description: 'The recording itself (image/gif): with the token of its URL, or an API key.',
    auth: 'token',
    query: { runId, token: { type: 'string', description: 'The share token from the recording URL.' } },
    handle: async (args, services) => {
      const gif = (await binaryRun(args, services, 'gif', {})).gif;
      if (!gif) throw new HttpError(404, 'The run has no screenshots yet.');
      return { bytes: Buffer.from(gif, 'base64'), contentType: 'image/gif' };
    },
  },
  {
    method: 'GET',
    path: '/task/:taskId/run/step/:index.png',
    description: "A step's screenshot (image/png): with the token of its URL, or an API key.",
    auth: 'token',
    query: { runId, token: { type: 'string', description: 'The share token from the screenshot URL.' } },
    handle: async (args, services) => {
      const index = Number(args.params.index);
      if (!Number.isSafeInteger(index) || index < 1) throw new HttpError(400, 'index must be a step number from 1');
      const png = (await binaryRun(args, services, 'screenshot(index: $index)', { index })).screenshot;
      if (!png) throw new HttpError(404, `Step ${index} has no screenshot.`);
      return { bytes: Buffer.from(png, 'base64'), contentType: 'image/png' };
    },
  },
];
