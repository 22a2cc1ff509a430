// Runs the eval suite: starts the eval sites, the model (the scripted one unless LLM_BASE_URL names
// a real one and --scripted is not given) and Almanac itself in this process on a temporary SQLite
// database (or the given one), then creates each task through the public task API, one at a time on
// freshly reset sites, waits for its run, and judges it with the task's checker.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { startServer, type RunningServer } from '../src/server.js';
import type { FakeLlm } from '../test/support/fake-llm.js';
import { startScriptedModel } from './scripted-model.js';
import { startEvalSites, type EvalSites } from './sites/server.js';
import { EVAL_TASKS, type EvalTask, type RunOutcome, type Verdict } from './tasks.js';

export interface EvalOptions {
  tasks?: EvalTask[];
  /** Use the scripted model even when LLM_BASE_URL is set. */
  scripted?: boolean;
  /** LLM_*, LLM_PRICES, TASK_*, CHROMIUM_PATH, LLM_PRICE_PER_1M_TOKENS… (default: process.env). */
  env?: Record<string, string | undefined>;
  /** Almanac's database (default: a temporary SQLite file, removed afterwards). */
  databaseUrl?: string;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
  /** After each task that succeeded, replay its run (replayOf) on the sites started afresh, judged the same way. */
  replay?: boolean;
}

export interface EvalResult {
  task: string;
  success: boolean;
  detail: string;
  steps: number;
  tokens: number;
  /** Why the task was not run (it needs a model that sees pictures). */
  skipped?: string;
  /** For a replay: how many of its steps were replayed without the LLM. */
  replayedSteps?: number;
  /** USD as Almanac priced the run (LLM_PRICES), else at LLM_PRICE_PER_1M_TOKENS; null without either, or no tokens reported. */
  cost: number | null;
  seconds: number;
}

export interface EvalReport {
  model: string;
  notes: string[];
  results: EvalResult[];
}

/** Seconds a run may take (create's timeoutSeconds) unless the task's options say otherwise. */
const RUN_SECONDS = { scripted: 60, real: 300 };

const RUN_QUERY = `query Run($taskId: ID!) { taskRun(taskId: $taskId) {
  id status error output dataTable tokensUsed costUsd startedAt finishedAt steps { index replayed } downloads { name sha256 } } }`;

export async function runEval(options: EvalOptions = {}): Promise<EvalReport> {
  const env = options.env ?? process.env;
  const tasks = options.tasks ?? EVAL_TASKS;
  const log = options.log ?? (() => undefined);
  const scripted = options.scripted || !env.LLM_BASE_URL;
  const price = env.LLM_PRICE_PER_1M_TOKENS ? Number(env.LLM_PRICE_PER_1M_TOKENS) : null;
  if (price !== null && !(price >= 0)) throw new Error(`LLM_PRICE_PER_1M_TOKENS must be a number (got "${env.LLM_PRICE_PER_1M_TOKENS}")`);

  let sites: EvalSites | undefined;
  let model: FakeLlm | undefined;
  let server: RunningServer | undefined;
  const dir = options.databaseUrl ? undefined : mkdtempSync(join(tmpdir(), 'almanac-eval-'));
  try {
    sites = await startEvalSites();
    if (scripted) model = await startScriptedModel();
    const adminKey = randomBytes(18).toString('hex');
    const config = loadConfig({
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl ?? `file:${join(dir!, 'eval.db')}`,
      LOG_LEVEL: env.EVAL_LOG_LEVEL || 'silent',
      ALMANAC_ADMIN_KEY: adminKey,
      // Tasks with secrets (login-totp) need a key to store them encrypted: one for this run unless given.
      ALMANAC_SECRET_KEY: env.ALMANAC_SECRET_KEY || randomBytes(32).toString('hex'),
      SITE_URL: 'http://127.0.0.1',
      // The sites are on 127.0.0.1, which the URL policy refuses: allowed by host and port, nothing else.
      TASK_ALLOW_PRIVATE_NETWORK: 'false',
      TASK_ALLOWED_HOSTS: sites.host,
      TASK_API_RATE_LIMIT: '100000',
      TASK_POLL_MS: '200',
      // The scripted model reads the element list only: it is sent no pictures.
      ...(model ? { LLM_BASE_URL: model.url, LLM_API_KEY: 'scripted', LLM_MODEL: 'scripted', LLM_VISION: 'off' } : {}),
    });
    const modelName = model ? "scripted (the harness's own, on 127.0.0.1)" : `${config.tasks.llmModel} at ${config.tasks.llmBaseUrl}`;
    const notes = [
      `model: ${modelName}`,
      `URL policy: TASK_ALLOWED_HOSTS=${sites.host} (the harness's own sites only; other private addresses stay blocked)`,
    ];
    const priced = !model && Object.hasOwn(config.tasks.llmPrices, config.tasks.llmModel);
    if (model) notes.push('tokens: the scripted model reports an estimate (characters sent / 4); cost n/a');
    else if (priced) notes.push(`cost: at LLM_PRICES for ${config.tasks.llmModel}, prompt and completion tokens apart`);
    else if (price === null)
      notes.push('cost: n/a (set LLM_PRICES with the price of the model, or LLM_PRICE_PER_1M_TOKENS to one blended price of 1M tokens)');

    server = await startServer(config);
    const api = client(server.url, adminKey);
    const results: EvalResult[] = [];
    for (const task of tasks) {
      if (task.needsVision && !config.tasks.vision) {
        const why = `skipped: ${config.tasks.llmModel} is not sent pictures (LLM_VISION)`;
        results.push({ task: task.name, success: false, skipped: why, detail: why, steps: 0, tokens: 0, cost: null, seconds: 0 });
        continue;
      }
      sites.reset();
      log(`running ${task.name}…`);
      const seconds = scripted ? RUN_SECONDS.scripted : RUN_SECONDS.real;
      const { runId, ...result } = await runTask(api, task, sites, seconds);
      const runs = [result];
      if (options.replay && result.success) {
        sites.reset();
        log(`replaying ${task.name}…`);
        const { runId: _, ...replayed } = await runTask(api, task, sites, seconds, runId);
        runs.push(replayed);
      }
      for (const run of runs) {
        if (model) run.cost = null;
        else if (!priced) run.cost = price !== null && run.tokens > 0 ? (run.tokens * price) / 1e6 : null;
        log(`  ${run.success ? 'success' : 'failure'}: ${run.detail}`);
        results.push(run);
      }
    }
    return { model: modelName, notes, results };
  } finally {
    await server?.close();
    await model?.close();
    await sites?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the task API's JSON answers: each use reads what it checks
type Api = (method: string, path: string, body?: unknown) => Promise<any>;

/** Calls Almanac's API with the admin key; any answer but a 200 breaks the harness. */
function client(url: string, key: string): Api {
  return async (method, path, body) => {
    const response = await fetch(url + path, {
      method,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    const json = JSON.parse(text);
    if (json.errors?.length) throw new Error(`${path}: ${JSON.stringify(json.errors).slice(0, 500)}`);
    return json.data;
  };
}

/** Runs the task (a replay of run `replayOf` when given) and judges it. */
async function runTask(
  api: Api,
  task: EvalTask,
  sites: EvalSites,
  defaultSeconds: number,
  replayOf?: string,
): Promise<EvalResult & { runId: string }> {
  const body = {
    task: task.prompt,
    name: `eval: ${task.name}`,
    startUrl: sites.url + task.start,
    timeoutSeconds: defaultSeconds,
    ...task.options,
    ...(replayOf ? { replayOf } : {}),
  };
  const { taskId } = await api('POST', '/api/v1/task/create', body);
  // The server ends the run at its timeoutSeconds; this deadline only guards against a harness that waits forever.
  const deadline = Date.now() + (Number(body.timeoutSeconds) + 60) * 1000;
  for (;;) {
    const status = await api('GET', `/api/v1/task/${taskId}/run/status`);
    if (status.status === 'completed' || status.status === 'error') break;
    if (Date.now() > deadline)
      throw new Error(`the run of ${task.name} did not end within its time limit (last status ${status.detailedStatus})`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const { taskRun: run } = await api('POST', '/graphql', { query: RUN_QUERY, variables: { taskId } });
  const outcome: RunOutcome = {
    status: run.status,
    error: run.error,
    output: run.output,
    dataTable: run.dataTable,
    downloads: run.downloads,
  };
  let verdict: Verdict;
  if (run.status !== 'completed') verdict = { ok: false, detail: `run ended in error: ${run.error}` };
  else {
    try {
      verdict = task.check(outcome, sites);
    } catch (error) {
      verdict = { ok: false, detail: `the checker failed: ${(error as Error).message}` };
    }
  }
  const seconds = run.startedAt && run.finishedAt ? (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000 : 0;
  const replayed = run.steps.filter((s: { replayed: boolean }) => s.replayed).length;
  return {
    runId: run.id,
    task: replayOf ? `${task.name} (replay)` : task.name,
    ...(replayOf ? { replayedSteps: replayed } : {}),
    success: verdict.ok,
    detail: replayOf ? `${replayed} of ${run.steps.length} steps replayed; ${verdict.detail}` : verdict.detail,
    steps: run.steps.length,
    tokens: run.tokensUsed,
    cost: run.costUsd,
    seconds,
  };
}

/** The command's exit code for a report that came to an end: 1 when a task failed and success is required. */
export const exitCode = (report: EvalReport, requireSuccess: boolean) =>
  requireSuccess && report.results.some((r) => !r.success && !r.skipped) ? 1 : 0;

/** The report as the terminal shows it: a table, then the success rate. */
export function formatReport(report: EvalReport): string {
  const header = ['task', 'success', 'steps', 'tokens', 'cost', 'time', 'detail'];
  const rows = report.results.map((r) => [
    r.task,
    r.skipped ? 'skip' : r.success ? 'yes' : 'NO',
    String(r.steps),
    // A replay's 0 is a count (no LLM call); elsewhere 0 means the model reported none.
    r.tokens || r.replayedSteps !== undefined ? String(r.tokens) : 'n/a',
    r.cost === null ? 'n/a' : r.cost.toFixed(4),
    `${r.seconds.toFixed(1)} s`,
    r.detail,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const passed = report.results.filter((r) => r.success).length;
  const skipped = report.results.filter((r) => r.skipped).length;
  return [
    ...report.notes,
    '',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    `${passed}/${report.results.length - skipped} tasks succeeded${skipped ? ` (${skipped} skipped)` : ''}`,
  ].join('\n');
}
