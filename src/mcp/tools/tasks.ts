// Browser-task tools: create a task (and optionally follow its run with progress notifications),
// read a run, answer the caller tool a run waits on, stop a run, list tasks.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Viewer } from '../../auth/viewer.js';
import { bounded, defined, defineTool, runAs, ToolFailure, type McpDeps, type ToolExtra } from '../tool-kit.js';

const RUN_FIELDS = `id taskId status detailedStatus liveStatus error output dataTable costUsd tokensUsed createdAt finishedAt
  downloads { id name size url } toolCall { id name parameters } steps { index title }`;

/** At most this many data-table rows and steps in an answer (the rest: counted, not shown). */
const MAX_ROWS = 50;
/** How often a followed run is read, and how long a tool call follows it at most. */
const FOLLOW_POLL_MS = 250;
const MAX_WAIT_SECONDS = 600;

const runOutput = z.object({
  id: z.string(),
  taskId: z.string(),
  status: z.string().describe('scheduled, running, completed or error.'),
  detailedStatus: z.string().describe('For people: thinking, acting, tool_call (waiting for a person), completed, failed, stopped…'),
  liveStatus: z.string().describe('What the agent is doing now.'),
  error: z.string().nullable(),
  output: z.unknown().describe("The agent's final answer (text, or an object matching outputSchema); long text is cut with a note."),
  dataTable: z.array(z.record(z.string(), z.unknown())).describe(`Rows the agent extracted (at most ${MAX_ROWS} shown).`),
  dataTableRows: z.number().int().describe('How many rows the run extracted.'),
  downloads: z.array(z.object({ id: z.string(), name: z.string(), size: z.number().int(), url: z.string() })),
  stepCount: z.number().int(),
  lastSteps: z.array(z.object({ index: z.number().int(), title: z.string() })).describe('The last steps taken (at most 10).'),
  waitingFor: z
    .object({ toolCallId: z.string(), tool: z.string(), parameters: z.unknown() })
    .nullable()
    .describe('When the run waits for a person: the caller tool it called and what it asks. Answer with answer_tool_call.'),
  costUsd: z.number().nullable(),
  tokensUsed: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
type RunView = z.infer<typeof runOutput>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the shape of RUN_FIELDS, as GraphQL answers it
function runView(run: any): RunView {
  const { toolCall, steps, dataTable, output, ...rest } = run;
  return {
    ...rest,
    output: typeof output === 'string' ? bounded(output, 4000) : output,
    dataTable: dataTable.slice(0, MAX_ROWS),
    dataTableRows: dataTable.length,
    stepCount: steps.length,
    lastSteps: steps.slice(-10),
    waitingFor: toolCall ? { toolCallId: toolCall.id, tool: toolCall.name, parameters: toolCall.parameters } : null,
    createdAt: String(rest.createdAt),
    finishedAt: rest.finishedAt === null ? null : String(rest.finishedAt),
  };
}

const ended = (run: RunView) => run.status === 'completed' || run.status === 'error';
const settled = (run: RunView) => ended(run) || run.waitingFor !== null;

function runSummary(run: RunView): string {
  if (run.waitingFor)
    return `Run ${run.id} of task ${run.taskId} waits for a person: its tool "${run.waitingFor.tool}" asks ${JSON.stringify(run.waitingFor.parameters)}. Answer with answer_tool_call {"taskId": "${run.taskId}", "toolCallId": "${run.waitingFor.toolCallId}", "input": "…"}.`;
  if (run.status === 'completed') {
    const output = typeof run.output === 'string' ? run.output : JSON.stringify(run.output);
    const rows = run.dataTableRows ? ` ${run.dataTableRows} data row(s).` : '';
    return `Run ${run.id} of task ${run.taskId} completed after ${run.stepCount} step(s). Output: ${output}.${rows}`;
  }
  if (run.status === 'error') return `Run ${run.id} of task ${run.taskId} ended without an answer: ${run.error}.`;
  return `Run ${run.id} of task ${run.taskId} is ${run.status} (${run.detailedStatus}): ${run.liveStatus || 'starting'}; ${run.stepCount} step(s) so far.`;
}

async function readRun(deps: McpDeps, viewer: Viewer | null, taskId: string, runId?: string): Promise<RunView> {
  const data = await runAs(deps, viewer, `query($taskId: ID!, $runId: ID) { taskRun(taskId: $taskId, runId: $runId) { ${RUN_FIELDS} } }`, {
    taskId,
    runId,
  });
  if (!data.taskRun) throw new ToolFailure(`NOT_FOUND: no run ${runId ?? '(latest)'} of a task ${taskId} of yours.\ntaskId: unknown`);
  return runView(data.taskRun);
}

/**
 * Reads the run until it ends or waits for a person (or `waitSeconds` pass, or the client cancels),
 * sending a progress notification at each change before that when the client asked for progress.
 */
async function followRun(deps: McpDeps, viewer: Viewer | null, extra: ToolExtra, taskId: string, runId: string, waitSeconds: number) {
  const token = extra._meta?.progressToken;
  const deadline = Date.now() + waitSeconds * 1000;
  let progress = 0;
  let last = '';
  for (;;) {
    const run = await readRun(deps, viewer, taskId, runId);
    if (settled(run) || Date.now() >= deadline || extra.signal.aborted) return run;
    // The end is the tool's result; notifications tell what happens until then.
    const now = `${run.status}|${run.detailedStatus}|${run.liveStatus}|${run.stepCount}`;
    if (token !== undefined && now !== last) {
      last = now;
      await extra.sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: ++progress, message: runSummary(run) },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
  }
}

const waitInput = {
  wait: z
    .boolean()
    .default(false)
    .describe('Follow the run until it ends or waits for a person, with progress notifications when the call carries a progressToken.'),
  waitSeconds: z
    .number()
    .int()
    .min(1)
    .max(MAX_WAIT_SECONDS)
    .default(120)
    .describe(`How long to follow it at most (1–${MAX_WAIT_SECONDS} s).`),
};
const runIds = {
  taskId: z.string().describe('The task id.'),
  runId: z.string().optional().describe('The run id (default: the latest run).'),
};

export function registerTaskTools(server: McpServer, deps: McpDeps): void {
  defineTool(
    server,
    deps,
    'create_browser_task',
    {
      title: 'Run a browser task',
      description:
        'Gives a task to a browser agent, which opens pages, clicks and types until it has the answer. Its run is durable; follow it with wait, or later with get_task_run. A caller tool pauses the run until answer_tool_call.',
      input: {
        task: z.string().describe('What to do, in natural language (1–10,000 characters).'),
        name: z.string().optional().describe('A name for lists (at most 120 characters).'),
        startUrl: z.string().optional().describe('An http(s) page to open first.'),
        outputSchema: z.record(z.string(), z.unknown()).optional().describe("A JSON Schema the agent's final answer must satisfy."),
        secrets: z
          .record(z.string(), z.union([z.string(), z.object({ totp: z.string().describe('A base32 TOTP seed.') })]))
          .optional()
          .describe(
            'Values the agent types without seeing them, by name: {name: "value"} or {name: {totp: "BASE32"}}. Never returned or logged.',
          ),
        profile: z.string().optional().describe('A browser profile name: its cookies and storage carry over from run to run.'),
        tools: z
          .array(z.record(z.string(), z.unknown()))
          .max(32)
          .optional()
          .describe(
            'Caller tools ({type: "function", function: {name, description, parameters}}): the run pauses for your answer when the agent calls one.',
          ),
        maxSteps: z.number().int().min(1).optional().describe('Step budget of the run (default 30).'),
        maxTokens: z.number().int().min(1).optional().describe('Tokens the run may use.'),
        maxCostUsd: z.number().positive().optional().describe('USD the run may spend on the model.'),
        timeoutSeconds: z.number().int().min(1).optional().describe('Time limit of the run in seconds.'),
        ...waitInput,
      },
      output: { taskId: z.string(), run: runOutput },
      kind: 'write',
    },
    async ({ wait, waitSeconds, ...input }, { viewer, extra }) => {
      const data = await runAs(deps, viewer, `mutation($input: CreateTaskInput!) { createTask(input: $input) { id latestRun { id } } }`, {
        input: defined(input),
      });
      const { id: taskId, latestRun } = data.createTask;
      const run = wait
        ? await followRun(deps, viewer, extra, taskId, latestRun.id, waitSeconds)
        : await readRun(deps, viewer, taskId, latestRun.id);
      return { summary: `Task ${taskId} created. ${runSummary(run)}`, data: { taskId, run } };
    },
  );

  defineTool(
    server,
    deps,
    'get_task_run',
    {
      title: 'Get a task run',
      description:
        "A run's status, what the agent does now, its output and data table, its downloads; a run waiting for a person says so, with the question.",
      input: { ...runIds, ...waitInput, wait: waitInput.wait.describe('Follow the run until it ends or waits for a person.') },
      output: { run: runOutput },
      kind: 'read',
    },
    async ({ taskId, runId, wait, waitSeconds }, { viewer, extra }) => {
      const run = await readRun(deps, viewer, taskId, runId);
      const followed = wait && !settled(run) ? await followRun(deps, viewer, extra, taskId, run.id, waitSeconds) : run;
      return { summary: runSummary(followed), data: { run: followed } };
    },
  );

  defineTool(
    server,
    deps,
    'answer_tool_call',
    {
      title: 'Answer a caller tool',
      description:
        'Answers the caller-tool call a run waits on (get_task_run shows it); the run continues with the answer as the tool result.',
      input: {
        ...runIds,
        toolCallId: z.string().optional().describe('The id of the call the run waits on (checked when given).'),
        input: z.string().describe('The answer, as text (JSON as text for a tool that asks for fields).'),
        ...waitInput,
      },
      output: { run: runOutput },
      kind: 'write',
    },
    async ({ taskId, runId, toolCallId, input, wait, waitSeconds }, { viewer, extra }) => {
      const data = await runAs(
        deps,
        viewer,
        `mutation($taskId: ID!, $runId: ID, $toolCallId: ID, $input: String!) {
          submitToolInput(taskId: $taskId, runId: $runId, toolCallId: $toolCallId, input: $input) { id } }`,
        { taskId, runId, toolCallId, input },
      );
      const answeredRun = data.submitToolInput.id as string;
      const run = wait
        ? await followRun(deps, viewer, extra, taskId, answeredRun, waitSeconds)
        : await readRun(deps, viewer, taskId, answeredRun);
      return { summary: `Answered. ${runSummary(run)}`, data: { run } };
    },
  );

  defineTool(
    server,
    deps,
    'stop_task_run',
    {
      title: 'Stop a task run',
      description: 'Stops a scheduled or running run: it ends with status error, "stopped".',
      input: runIds,
      output: { run: runOutput },
      kind: 'destructive',
    },
    async ({ taskId, runId }, { viewer }) => {
      const data = await runAs(deps, viewer, `mutation($taskId: ID!, $runId: ID) { stopTaskRun(taskId: $taskId, runId: $runId) { id } }`, {
        taskId,
        runId,
      });
      const run = await readRun(deps, viewer, taskId, data.stopTaskRun.id);
      return { summary: runSummary(run), data: { run } };
    },
  );

  defineTool(
    server,
    deps,
    'list_tasks',
    {
      title: 'List browser tasks',
      description: "The caller's browser tasks, newest first, with their latest run's status.",
      input: {
        page: z.number().int().min(1).default(1).describe('The page, from 1.'),
        limit: z.number().int().min(1).max(30).default(20).describe('Tasks per page (1–30).'),
      },
      output: {
        tasks: z.array(
          z.object({
            id: z.string(),
            name: z.string(),
            status: z.string().describe('active, or inactive once stopped.'),
            createdAt: z.string(),
            latestRun: z.object({ id: z.string(), status: z.string(), detailedStatus: z.string() }).nullable(),
          }),
        ),
        total: z.number().int(),
        page: z.number().int(),
      },
      kind: 'read',
    },
    async ({ page, limit }, { viewer }) => {
      const data = await runAs(
        deps,
        viewer,
        `query($page: Int, $limit: Int) { tasks(page: $page, limit: $limit) { total page items {
          id readableName status createdAt latestRun { id status detailedStatus } } } }`,
        { page, limit },
      );
      const tasks = data.tasks.items.map(({ readableName, createdAt, ...task }: { readableName: string; createdAt: unknown }) => ({
        ...task,
        name: readableName,
        createdAt: String(createdAt),
      }));
      const lines = tasks.map(
        (t: { id: string; name: string; latestRun: { detailedStatus: string } | null }) =>
          `${t.id} ${t.name} [${t.latestRun?.detailedStatus ?? 'no run'}]`,
      );
      return {
        summary: `${data.tasks.total} task(s).\n${lines.join('\n')}`,
        data: { tasks, total: data.tasks.total, page: data.tasks.page },
      };
    },
  );
}
