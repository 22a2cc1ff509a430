// @ts-check
// The console's shared pieces: the shapes it reads, its GraphQL documents, the view's state and small DOM helpers.
import { ApiError } from './api.js';
import { byId } from './dom.js';

// The shapes the queries below read (the GraphQL schema's, as far as the console uses them).
/** @typedef {{ status: string, detailedStatus: string, liveStatus?: string | null }} RunStatus */
/** @typedef {RunStatus & { id: string }} LatestRun */
/** @typedef {{ id: string, readableName: string, status: string, createdAt: string, latestRun: LatestRun | null }} TaskSummary */
/** @typedef {RunStatus & { id: string, createdAt: string }} RunSummary */
/**
 * @typedef {{
 *   id: string, name: string | null, readableName: string, task: string, status: string, createdAt: string,
 *   maxTokens: number | null, maxCostUsd: number | null, runs: { total: number, items: RunSummary[] },
 * }} Task
 */
/**
 * @typedef {{
 *   index: number, url: string | null, title: string | null, action: string, callsCallerTool: boolean,
 *   arguments: Record<string, unknown> | null, reasoning: string | null, result: string | null, screenshotUrl: string | null,
 *   replayed: boolean,
 * }} Step
 */
/** @typedef {{ id: string, name: string, input: string | null }} AnsweredToolCall */
/** @typedef {{ id: string, name: string, size: number, url: string }} Download */
/**
 * @typedef {RunStatus & {
 *   id: string, taskId: string, error: string | null, output: unknown, dataTable: unknown[] | null,
 *   createdAt: string, startedAt: string | null, finishedAt: string | null, tokensUsed: number, costUsd: number | null,
 *   toolCall: import('./tool-form.js').ToolCall | null, toolCalls: AnsweredToolCall[] | null, steps: Step[],
 *   recording: { status: string, url: string } | null, traceUrl: string | null, downloads: Download[] | null,
 * }} Run
 */
/** @typedef {{ id: string, name: string, builtIn: boolean, definition: { function?: { description?: string } } | null }} SavedTool */
/** @typedef {{ name: string, cookies: number, origins: number, updatedAt: string }} BrowserProfile */
/** @typedef {{ li: HTMLLIElement, link: HTMLAnchorElement, name: HTMLElement, badge: HTMLElement, when: HTMLElement, created: string | null }} TaskItem */
/** @typedef {{ li: HTMLLIElement, article: HTMLElement, answered: boolean }} StepItem */

export const TASKS = `subscription ConsoleTasks {
  tasks(limit: 30) { id readableName status createdAt latestRun { id status detailedStatus liveStatus } }
}`;
export const TASK = `query ConsoleTask($id: ID!) {
  task(id: $id) { id name readableName task status createdAt maxTokens maxCostUsd runs(limit: 30) { total items { id status detailedStatus createdAt } } }
}`;
export const RUN = `subscription ConsoleRun($taskId: ID!, $runId: ID) {
  taskRun(taskId: $taskId, runId: $runId) {
    id taskId status detailedStatus liveStatus error output dataTable createdAt startedAt finishedAt tokensUsed costUsd
    toolCall { id name parameters }
    toolCalls { id name input }
    steps { index url title action callsCallerTool arguments reasoning result screenshotUrl replayed }
    recording { status url }
    traceUrl
    downloads { id name size url }
  }
}`;
export const CREATE = `mutation ConsoleCreate($input: CreateTaskInput!) { createTask(input: $input) { id } }`;
export const RERUN = `mutation ConsoleRerun($id: ID!) { rerunTask(id: $id) { id taskId } }`;
export const TOOLS = `query ConsoleTools { savedTools { id name builtIn definition } }`;
export const SAVE_TOOL = `mutation ConsoleSaveTool($tool: JSON!) { saveTool(tool: $tool) { id name } }`;
export const DELETE_TOOL = `mutation ConsoleDeleteTool($id: ID!) { deleteSavedTool(id: $id) { id name } }`;
export const PROFILES = `query ConsoleProfiles { browserProfiles { name cookies origins updatedAt } }`;
export const DELETE_PROFILE = `mutation ConsoleDeleteProfile($name: String!) { deleteBrowserProfile(name: $name) { name } }`;
export const RENAME = `mutation ConsoleRename($id: ID!, $name: String) { renameTask(id: $id, name: $name) { id name readableName } }`;
export const KEY = `query ConsoleKey { apiKey { id prefix label webhookUrl } }`;
export const SET_WEBHOOK = `mutation ConsoleKeyWebhook($id: Int!, $url: String) { setApiKeyWebhookUrl(id: $id, webhookUrl: $url) { id webhookUrl } }`;
export const CHECK = `query ConsoleCheck { tasks(limit: 1) { total } }`;
export const STOP = `mutation ConsoleStop($taskId: ID!, $runId: ID) { stopTaskRun(taskId: $taskId, runId: $runId) { id } }`;
export const ANSWER = `mutation ConsoleAnswer($taskId: ID!, $runId: ID, $input: String!, $toolCallId: ID) {
  submitToolInput(taskId: $taskId, runId: $runId, input: $input, toolCallId: $toolCallId) { id }
}`;

/** @type {Record<string, string>} */
export const DETAILED = {
  queued: 'Queued',
  starting_browser: 'Starting the browser',
  thinking: 'Thinking',
  acting: 'Acting',
  tool_call: 'Waiting for your input',
  completed: 'Completed',
  failed: 'Failed',
  stopped: 'Stopped',
  timed_out: 'Timed out',
  interrupted: 'Interrupted',
};

export const $ = (/** @type {string} */ id) => byId(id);
export const $input = (/** @type {string} */ id) => byId(id, HTMLInputElement);
export const $textarea = (/** @type {string} */ id) => byId(id, HTMLTextAreaElement);
/** A form's button (by default its submit button): every console form has one. */
export function buttonOf(/** @type {string} */ formId, selector = 'button[type="submit"]') {
  const button = $(formId).querySelector(selector);
  if (!(button instanceof HTMLButtonElement)) throw new Error(`#${formId} has no ${selector}.`);
  return button;
}
/** The API's code for an error (NOT_FOUND, CONFLICT…), if it is one the API reported. */
export const codeOf = (/** @type {unknown} */ error) => (error instanceof ApiError ? error.code : undefined);
/** The API's reason for refusing one input field, if it gave one. */
export const paramOf = (/** @type {unknown} */ error, /** @type {string} */ name) =>
  error instanceof ApiError ? error.params?.[name] : undefined;
export const TITLE = document.title;
export const ended = (/** @type {RunStatus | null} */ run) => !!run && (run.status === 'completed' || run.status === 'error');
export const statusLabel = (/** @type {RunStatus | null | undefined} */ run) =>
  !run ? 'No runs' : run.status === 'scheduled' ? 'Scheduled' : (DETAILED[run.detailedStatus] ?? run.detailedStatus);

/**
 * A status badge: words first (colour only repeats them).
 * @param {Element} badge
 * @param {RunStatus | null | undefined} run
 */
export function setBadge(badge, run) {
  badge.textContent = statusLabel(run);
  badge.className = `badge ${run ? `status-${run.status}` : 'status-none'}${run?.detailedStatus === 'tool_call' ? ' waiting' : ''}`;
}

/**
 * @type {{
 *   tasksSub: { close(): void } | null, runSub: { close(): void } | null, taskId: string | null, runId: string | null,
 *   task: Task | null, run: Run | null, toolCallId: string | null, resultShown: boolean,
 *   steps: Map<number, StepItem>, items: Map<string, TaskItem>, seq: number,
 *   tools: SavedTool[] | null, toolsSeq: number, keyId: number | null,
 * }}
 */
export const view = {
  tasksSub: null,
  runSub: null,
  taskId: null,
  runId: null,
  task: null,
  run: null,
  toolCallId: null,
  resultShown: false,
  steps: new Map(),
  items: new Map(),
  seq: 0,
  /** The tool definitions offered in New task (null until loaded). */
  tools: null,
  toolsSeq: 0,
  keyId: null,
};
