// @ts-check
// The task console: sign in with an API key, create tasks and run them again, follow the key's
// tasks and a run live (GraphQL subscriptions over server-sent events: the page never polls),
// answer the agent's tool calls, stop a run, watch its recording and download its data, name tasks,
// pick and save tool definitions, and set the key's default webhook. Routes live in the URL hash:
// #/new, #/key, #/task/<taskId> and #/task/<taskId>/run/<runId>.

import { ApiError, AuthError, createTaskWithFiles, fetchFile, forgetKey, gql, messageOf, storeKey, storedKey, subscribe } from './api.js';
import { byId, el, time } from './dom.js';
import { toolCallForm } from './tool-form.js';

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
 *   recording: { status: string, url: string } | null, downloads: Download[] | null,
 * }} Run
 */
/** @typedef {{ id: string, name: string, builtIn: boolean, definition: { function?: { description?: string } } | null }} SavedTool */
/** @typedef {{ name: string, cookies: number, origins: number, updatedAt: string }} BrowserProfile */
/** @typedef {{ li: HTMLLIElement, link: HTMLAnchorElement, name: HTMLElement, badge: HTMLElement, when: HTMLElement, created: string | null }} TaskItem */
/** @typedef {{ li: HTMLLIElement, article: HTMLElement, answered: boolean }} StepItem */

const TASKS = `subscription ConsoleTasks {
  tasks(limit: 30) { id readableName status createdAt latestRun { id status detailedStatus liveStatus } }
}`;
const TASK = `query ConsoleTask($id: ID!) {
  task(id: $id) { id name readableName task status createdAt maxTokens maxCostUsd runs(limit: 30) { total items { id status detailedStatus createdAt } } }
}`;
const RUN = `subscription ConsoleRun($taskId: ID!, $runId: ID) {
  taskRun(taskId: $taskId, runId: $runId) {
    id taskId status detailedStatus liveStatus error output dataTable createdAt startedAt finishedAt tokensUsed costUsd
    toolCall { id name parameters }
    toolCalls { id name input }
    steps { index url title action callsCallerTool arguments reasoning result screenshotUrl replayed }
    recording { status url }
    downloads { id name size url }
  }
}`;
const CREATE = `mutation ConsoleCreate($input: CreateTaskInput!) { createTask(input: $input) { id } }`;
const RERUN = `mutation ConsoleRerun($id: ID!) { rerunTask(id: $id) { id taskId } }`;
const TOOLS = `query ConsoleTools { savedTools { id name builtIn definition } }`;
const SAVE_TOOL = `mutation ConsoleSaveTool($tool: JSON!) { saveTool(tool: $tool) { id name } }`;
const DELETE_TOOL = `mutation ConsoleDeleteTool($id: ID!) { deleteSavedTool(id: $id) { id name } }`;
const PROFILES = `query ConsoleProfiles { browserProfiles { name cookies origins updatedAt } }`;
const DELETE_PROFILE = `mutation ConsoleDeleteProfile($name: String!) { deleteBrowserProfile(name: $name) { name } }`;
const RENAME = `mutation ConsoleRename($id: ID!, $name: String) { renameTask(id: $id, name: $name) { id name readableName } }`;
const KEY = `query ConsoleKey { apiKey { id prefix label webhookUrl } }`;
const SET_WEBHOOK = `mutation ConsoleKeyWebhook($id: Int!, $url: String) { setApiKeyWebhookUrl(id: $id, webhookUrl: $url) { id webhookUrl } }`;
const CHECK = `query ConsoleCheck { tasks(limit: 1) { total } }`;
const STOP = `mutation ConsoleStop($taskId: ID!, $runId: ID) { stopTaskRun(taskId: $taskId, runId: $runId) { id } }`;
const ANSWER = `mutation ConsoleAnswer($taskId: ID!, $runId: ID, $input: String!, $toolCallId: ID) {
  submitToolInput(taskId: $taskId, runId: $runId, input: $input, toolCallId: $toolCallId) { id }
}`;

/** @type {Record<string, string>} */
const DETAILED = {
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

const $ = (/** @type {string} */ id) => byId(id);
const $input = (/** @type {string} */ id) => byId(id, HTMLInputElement);
const $textarea = (/** @type {string} */ id) => byId(id, HTMLTextAreaElement);
/** A form's button (by default its submit button): every console form has one. */
function buttonOf(/** @type {string} */ formId, selector = 'button[type="submit"]') {
  const button = $(formId).querySelector(selector);
  if (!(button instanceof HTMLButtonElement)) throw new Error(`#${formId} has no ${selector}.`);
  return button;
}
/** The API's code for an error (NOT_FOUND, CONFLICT…), if it is one the API reported. */
const codeOf = (/** @type {unknown} */ error) => (error instanceof ApiError ? error.code : undefined);
/** The API's reason for refusing one input field, if it gave one. */
const paramOf = (/** @type {unknown} */ error, /** @type {string} */ name) =>
  error instanceof ApiError ? error.params?.[name] : undefined;
const TITLE = document.title;
const ended = (/** @type {RunStatus | null} */ run) => !!run && (run.status === 'completed' || run.status === 'error');
const statusLabel = (/** @type {RunStatus | null | undefined} */ run) =>
  !run ? 'No runs' : run.status === 'scheduled' ? 'Scheduled' : (DETAILED[run.detailedStatus] ?? run.detailedStatus);

/**
 * A status badge: words first (colour only repeats them).
 * @param {Element} badge
 * @param {RunStatus | null | undefined} run
 */
function setBadge(badge, run) {
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
const view = {
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

// ——— signing in and out ———

function showSignin(message = '') {
  $('signin').hidden = false;
  $('workspace').hidden = true;
  $('account').hidden = true;
  const input = $input('api-key');
  $('signin-error').textContent = message;
  if (message) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
  input.focus();
}

function refuse(/** @type {string} */ message) {
  $('signin-error').textContent = message;
  $input('api-key').setAttribute('aria-invalid', 'true');
  $input('api-key').focus();
}

$('signin-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = $input('api-key');
  const button = buttonOf('signin-form', 'button');
  const key = input.value.trim();
  if (!key) return refuse('Enter your API key.');
  button.disabled = true;
  $('signin-error').textContent = '';
  try {
    await gql(CHECK, {}, key);
    storeKey(key);
    input.value = '';
    input.removeAttribute('aria-invalid');
    enter(true);
  } catch (error) {
    if (error instanceof AuthError)
      refuse('That API key was refused: Almanac does not know it, or it was revoked. Check the key and try again.');
    else refuse(`Could not sign in: ${messageOf(error)}`);
  } finally {
    button.disabled = false;
  }
});

$('sign-out').addEventListener('click', () => signOut());

function signOut(message = '') {
  view.tasksSub?.close();
  view.tasksSub = null;
  closeRun();
  view.taskId = view.task = null;
  view.items.clear();
  $('task-list').replaceChildren();
  view.tools = view.keyId = null;
  view.toolsSeq++;
  $('tool-choices').replaceChildren();
  forgetKey();
  if (location.hash) history.replaceState(null, '', location.pathname);
  showSignin(message);
}

const expired = () => signOut('Your API key is no longer accepted. Sign in again.');

function enter(/** @type {boolean} */ focus) {
  $('signin').hidden = true;
  $('workspace').hidden = false;
  $('account').hidden = false;
  view.tasksSub = subscribe(
    TASKS,
    {},
    {
      onData: (data) => renderTasks(data.tasks),
      onState: (state) =>
        ($('live-state').textContent = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', ended: 'Disconnected' }[
          state
        ]),
      onAuth: expired,
    },
  );
  route();
  if (focus) $('tasks-title').focus();
}

// ——— the task list ———

function renderTasks(/** @type {TaskSummary[]} */ tasks) {
  $('tasks-empty').hidden = tasks.length > 0;
  const list = $('task-list');
  const keep = new Set(tasks.map((task) => task.id));
  for (const [id, item] of view.items) {
    if (!keep.has(id)) {
      item.li.remove();
      view.items.delete(id);
    }
  }
  tasks.forEach((task, i) => {
    let item = view.items.get(task.id);
    if (!item) {
      const name = el('span', { class: 'task-name' });
      const badge = el('span', { class: 'badge' });
      const when = el('span', { class: 'when' });
      const link = el('a', { href: `#/task/${encodeURIComponent(task.id)}` }, name, el('span', { class: 'task-meta' }, badge, ' ', when));
      item = { li: el('li', {}, link), link, name, badge, when, created: null };
      view.items.set(task.id, item);
    }
    item.name.textContent = task.readableName;
    setBadge(item.badge, task.latestRun);
    if (task.status === 'inactive') item.badge.textContent += ' (task stopped)';
    if (item.created !== task.createdAt) {
      item.created = task.createdAt;
      item.when.replaceChildren(time(task.createdAt));
    }
    // Only new or reordered items are inserted, so a focused link keeps its focus.
    if (list.children[i] !== item.li) list.insertBefore(item.li, list.children[i] ?? null);
  });
  markCurrent();
  // A new run of the open task: show it in the run list.
  const open = tasks.find((task) => task.id === view.taskId);
  const latest = open?.latestRun;
  if (open && latest && view.task && !view.task.runs.items.some((run) => run.id === latest.id)) void loadTask(open.id, false);
  // Renamed (here or by another client): the open task's title follows.
  if (open && view.task && open.readableName !== view.task.readableName) showTaskName(open.readableName);
}

function markCurrent() {
  for (const [id, item] of view.items) {
    if (id === view.taskId) item.link.setAttribute('aria-current', 'page');
    else item.link.removeAttribute('aria-current');
  }
  for (const link of $('run-list').querySelectorAll('a')) {
    if (link.dataset.runId === view.runId) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}

// ——— routing ———

/** @returns {{ creating?: boolean, settings?: boolean, taskId: string | null, runId: string | null }} */
function parseRoute() {
  if (location.hash === '#/new') return { creating: true, taskId: null, runId: null };
  if (location.hash === '#/key') return { settings: true, taskId: null, runId: null };
  const match = /^#\/task\/([^/]+)(?:\/run\/([^/]+))?$/.exec(location.hash);
  if (!match) return { taskId: null, runId: null };
  return { taskId: decodeURIComponent(match[1]), runId: match[2] ? decodeURIComponent(match[2]) : null };
}

async function route() {
  if (!storedKey()) return;
  const { creating, settings, taskId, runId } = parseRoute();
  $('new-task').hidden = !creating;
  $('key-settings').hidden = !settings;
  if (creating || settings) {
    closeRun();
    view.taskId = view.task = null;
    markCurrent();
    $('run-view').hidden = true;
    $('run-placeholder').hidden = true;
    if (creating) {
      $('new-task-title').focus();
      void loadTools();
      void loadProfiles();
    } else {
      $('key-settings-title').focus();
      void loadKeySettings();
      void loadProfiles();
    }
    return;
  }
  if (taskId !== view.taskId || !view.task) {
    closeRun();
    view.taskId = taskId;
    view.task = null;
    markCurrent();
    if (!taskId) {
      $('run-view').hidden = true;
      $('run-placeholder').hidden = false;
      $('run-placeholder').textContent = 'Choose a task to see its runs.';
      return;
    }
    if (!(await loadTask(taskId, true))) return;
  }
  const target = runId ?? view.task?.runs.items[0]?.id ?? null;
  if (target !== view.runId || !view.runSub) openRun(target);
  markCurrent();
}

window.addEventListener('hashchange', () => void route());

/**
 * Loads the task's details and runs; false when it is not the caller's.
 * @param {string} taskId
 * @param {boolean} fresh
 */
async function loadTask(taskId, fresh) {
  const seq = ++view.seq;
  /** @type {Task | null} */
  let task;
  try {
    task = (await gql(TASK, { id: taskId })).task;
  } catch (error) {
    if (error instanceof AuthError) return (expired(), false);
    if (seq === view.seq) showPlaceholder(`Could not load the task: ${messageOf(error)}`);
    return false;
  }
  if (seq !== view.seq || view.taskId !== taskId) return false;
  if (!task) {
    showPlaceholder('There is no task with that id for this API key.');
    return false;
  }
  const renaming = view.task?.id === taskId && !$('rename-form').hidden;
  view.task = task;
  $('run-placeholder').hidden = true;
  $('run-view').hidden = false;
  if (!renaming) closeRename(false);
  showTaskName(task.readableName);
  renderRunList();
  if (fresh) $('run-title').focus();
  return true;
}

/** The open task's name in its heading (and the instructions under it when the name is not them). */
function showTaskName(/** @type {string} */ readableName) {
  const task = view.task;
  if (!task) return;
  task.readableName = readableName;
  $('run-title').textContent = readableName;
  $('task-text').textContent = task.task === readableName ? '' : task.task;
  $('task-text').hidden = task.task === readableName;
  if (view.run) document.title = `${statusLabel(view.run)} · ${readableName} — ${TITLE}`;
}

// ——— renaming the open task ———

function openRename() {
  if (!view.task) return;
  const input = $input('rename-input');
  input.value = view.task.name ?? '';
  input.placeholder = view.task.name ? '' : view.task.readableName;
  renameError('');
  $('rename-form').hidden = false;
  $('rename-task').hidden = true;
  input.focus();
  input.select();
}

function closeRename(/** @type {boolean} */ focus) {
  $('rename-form').hidden = true;
  $('rename-task').hidden = false;
  renameError('');
  if (focus) $('rename-task').focus();
}

function renameError(/** @type {string} */ message) {
  $('rename-error').textContent = message;
  if (message) $input('rename-input').setAttribute('aria-invalid', 'true');
  else $input('rename-input').removeAttribute('aria-invalid');
}

$('rename-task').addEventListener('click', openRename);
$('rename-cancel').addEventListener('click', () => closeRename(true));
$('rename-form').addEventListener('keydown', (event) => {
  if (event.key === 'Escape') {
    event.preventDefault();
    closeRename(true);
  }
});

$('rename-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = buttonOf('rename-form');
  const task = view.task;
  if (!task || button.getAttribute('aria-disabled') === 'true') return;
  button.setAttribute('aria-disabled', 'true');
  renameError('');
  try {
    const renamed = (await gql(RENAME, { id: task.id, name: $input('rename-input').value })).renameTask;
    if (view.task !== task) return;
    task.name = renamed.name;
    showTaskName(renamed.readableName);
    const item = view.items.get(task.id);
    if (item) item.name.textContent = renamed.readableName;
    closeRename(false);
    $('run-title').focus();
  } catch (error) {
    if (error instanceof AuthError) return expired();
    renameError(
      paramOf(error, 'name') ??
        (codeOf(error) === 'NOT_FOUND' ? 'This task no longer exists.' : `The task could not be renamed: ${messageOf(error)}`),
    );
    $input('rename-input').focus();
  } finally {
    button.removeAttribute('aria-disabled');
  }
});

function showPlaceholder(/** @type {string} */ text) {
  $('run-view').hidden = true;
  $('run-placeholder').hidden = false;
  $('run-placeholder').textContent = text;
}

function renderRunList() {
  const task = view.task;
  if (!task) return;
  const items = task.runs.items.map((run) => {
    const current = view.run?.id === run.id ? view.run : run;
    const badge = el('span', { class: 'badge' });
    setBadge(badge, current);
    const link = el(
      'a',
      { href: `#/task/${encodeURIComponent(task.id)}/run/${encodeURIComponent(run.id)}`, 'data-run-id': run.id },
      time(run.createdAt),
      ' ',
      badge,
    );
    return el('li', {}, link);
  });
  $('run-list').replaceChildren(...items);
  markCurrent();
}

// ——— one run, live ———

function closeRun() {
  document.title = TITLE;
  view.runSub?.close();
  view.runSub = null;
  view.runId = null;
  view.run = null;
  view.toolCallId = null;
  view.resultShown = false;
  view.steps.clear();
  $('step-list').replaceChildren();
  $('steps-empty').hidden = false;
  $('tool-call').replaceChildren();
  $('tool-call').hidden = true;
  $('result-body').replaceChildren();
  $('result').hidden = true;
  $('run-message').textContent = '';
  $('run-live').textContent = '';
  $('run-connection').textContent = '';
  $('stop-run').hidden = true;
  $('rerun-task').hidden = true;
  for (const id of ['run-id', 'run-created', 'run-started', 'run-finished', 'run-steps', 'run-tokens', 'run-cost']) $(id).replaceChildren();
}

function openRun(/** @type {string | null} */ runId) {
  closeRun();
  if (!runId) {
    setBadge($('run-badge'), null);
    $('run-live').textContent = 'This task has no runs.';
    return;
  }
  view.runId = runId;
  $('run-badge').textContent = 'Loading…';
  view.runSub = subscribe(
    RUN,
    { taskId: view.taskId, runId },
    {
      onData: (data) => data.taskRun.id === view.runId && renderRun(data.taskRun),
      onError: (error) =>
        ($('run-message').textContent =
          error.code === 'NOT_FOUND' ? 'There is no such run for this API key.' : `The run could not be followed: ${messageOf(error)}`),
      onState: (state) => ($('run-connection').textContent = state === 'reconnecting' ? '(reconnecting…)' : ''),
      onAuth: expired,
    },
  );
}

/** An amount of US dollars to 4 significant digits (LLM calls cost fractions of a cent). */
const usd = (/** @type {number} */ amount) =>
  amount.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumSignificantDigits: 4 });

function renderRun(/** @type {Run} */ run) {
  const before = view.run;
  view.run = run;
  setBadge($('run-badge'), run);
  const label = statusLabel(run);
  const live = run.liveStatus && run.liveStatus !== label ? `${label} — ${run.liveStatus}` : label;
  document.title = `${statusLabel(run)} · ${view.task?.readableName ?? 'Run'} — ${TITLE}`;
  if ($('run-live').textContent !== live) $('run-live').textContent = live;
  $('run-id').textContent = run.id;
  if (!before) $('run-created').replaceChildren(time(run.createdAt));
  if (before?.startedAt !== run.startedAt) $('run-started').replaceChildren(time(run.startedAt));
  if (before?.finishedAt !== run.finishedAt) $('run-finished').replaceChildren(time(run.finishedAt));
  // What the run has cost so far: steps taken, the LLM's tokens (as its `usage` reports them) and
  // their price, each against the task's budget when it has one.
  $('run-steps').textContent = String(run.steps.length);
  const budget = view.task?.id === run.taskId ? view.task : null;
  const of = (/** @type {string} */ used, /** @type {string | null} */ limit) => (limit ? `${used} of ${limit}` : used);
  $('run-tokens').textContent = of(run.tokensUsed.toLocaleString(), budget?.maxTokens?.toLocaleString() ?? null);
  $('run-cost').textContent =
    run.costUsd === null ? 'unknown (the model has no price)' : of(usd(run.costUsd), budget?.maxCostUsd ? usd(budget.maxCostUsd) : null);
  const link = $('run-list').querySelector(`a[data-run-id="${CSS.escape(run.id)}"] .badge`);
  if (link) setBadge(link, run);

  const stop = $('stop-run');
  // Controls that go away when the run ends: focus moves on to the result rather than being lost.
  const focusGoes = document.activeElement === stop || $('tool-call').contains(document.activeElement);
  stop.hidden = ended(run);
  $('rerun-task').hidden = !ended(run);
  renderSteps(run);
  if (ended(run) && !view.resultShown) {
    view.resultShown = true;
    renderResult(run);
  }
  renderToolCall(run);
  if (ended(run) && focusGoes) $('result-title').focus();
}

function renderToolCall(/** @type {Run} */ run) {
  const section = $('tool-call');
  if (ended(run)) {
    view.toolCallId = null;
    section.replaceChildren();
    section.hidden = true;
    return;
  }
  const call = run.status === 'running' ? run.toolCall : null;
  if (call) {
    if (view.toolCallId === call.id) return;
    view.toolCallId = call.id;
    const form = toolCallForm(call, (input) =>
      gql(ANSWER, { taskId: run.taskId, runId: run.id, input, toolCallId: call.id }).catch((error) => {
        if (error instanceof AuthError) expired();
        throw codeOf(error) === 'CONFLICT' ? new Error('the run is no longer waiting for this answer.') : error;
      }),
    );
    section.replaceChildren(form);
    section.hidden = false;
    return;
  }
  if (!view.toolCallId) return;
  // Answered, here or by another client.
  view.toolCallId = null;
  const hadFocus = section.contains(document.activeElement);
  const note = el('p', { class: 'answered', tabindex: '-1' }, 'Answer received. The run continues.');
  section.replaceChildren(note);
  if (hadFocus) note.focus();
}

function renderSteps(/** @type {Run} */ run) {
  const list = $('step-list');
  // The k-th step that called a caller tool is the k-th tool call: show its answer there.
  const calls = run.toolCalls ?? [];
  let k = 0;
  for (const step of run.steps) {
    const call = step.callsCallerTool ? calls[k++] : null;
    let item = view.steps.get(step.index);
    if (!item) {
      item = stepItem(step);
      view.steps.set(step.index, item);
      list.append(item.li);
    }
    if (call?.input != null && !item.answered) {
      item.answered = true;
      item.article.append(el('p', { class: 'answer' }, el('span', { class: 'label' }, 'Answer: '), el('code', {}, call.input)));
    }
  }
  $('steps-empty').hidden = run.steps.length > 0;
  $('steps-empty').textContent = ended(run) ? 'No steps.' : 'No steps yet.';
}

const isWeb = (/** @type {string | null} */ url) => /^https?:\/\//i.test(url ?? '');

/** The screenshot's address on this origin (the API gives absolute URLs under SITE_URL). */
function sameOrigin(/** @type {string} */ url) {
  try {
    const parsed = new URL(url, location.href);
    return parsed.pathname + parsed.search;
  } catch {
    return null;
  }
}

/** @returns {StepItem} */
function stepItem(/** @type {Step} */ step) {
  const titleId = `step-${step.index}-title`;
  const article = el('article', { 'aria-labelledby': titleId });
  const replayed = step.replayed
    ? el('span', { class: 'badge replayed', title: 'Repeated from an earlier run, without the LLM' }, 'replayed')
    : null;
  article.append(el('h4', { id: titleId }, `Step ${step.index}: `, el('code', {}, step.action), replayed && ' ', replayed));
  if (step.url) {
    const where = isWeb(step.url)
      ? el('a', { href: step.url, target: '_blank', rel: 'noopener noreferrer' }, step.title || step.url)
      : el('span', {}, step.title || step.url);
    article.append(el('p', { class: 'page' }, el('span', { class: 'label' }, 'Page: '), where));
  }
  // The model's own words before it chose the action: why this step, when a run goes wrong.
  if (step.reasoning) article.append(el('p', { class: 'reasoning' }, el('span', { class: 'label' }, 'Reasoning: '), step.reasoning));
  const args = step.arguments && Object.keys(step.arguments).length ? JSON.stringify(step.arguments) : '';
  if (args) article.append(el('p', {}, el('span', { class: 'label' }, 'Arguments: '), el('code', { class: 'wrap' }, args)));
  if (step.result) article.append(el('p', {}, el('span', { class: 'label' }, 'Result: '), step.result));
  const src = step.screenshotUrl && sameOrigin(step.screenshotUrl);
  if (src) {
    const image = el('img', {
      src,
      alt: `The page at step ${step.index}: ${step.title || step.url || 'untitled'}`,
      width: '1280',
      height: '800',
      loading: 'lazy',
      decoding: 'async',
    });
    article.append(
      el(
        'figure',
        {},
        el('a', { href: src, target: '_blank', rel: 'noopener' }, image),
        el('figcaption', {}, 'What the agent saw (select to open full size).'),
      ),
    );
  }
  return { li: el('li', { class: 'step' }, article), article, answered: false };
}

function renderResult(/** @type {Run} */ run) {
  const body = $('result-body');
  /** @type {HTMLElement[]} */
  const parts = [];
  if (run.error) parts.push(el('p', { class: 'run-error' }, el('strong', {}, 'Error: '), run.error));
  parts.push(el('h4', {}, 'Output'));
  if (run.output === null || run.output === undefined) parts.push(el('p', { class: 'muted' }, 'No output.'));
  else if (typeof run.output === 'string') parts.push(el('p', { class: 'output' }, run.output));
  else parts.push(el('pre', { class: 'output' }, JSON.stringify(run.output, null, 2)));
  parts.push(dataTable(run.dataTable ?? []));
  if (run.downloads?.length) parts.push(el('h4', {}, 'Files the run downloaded'), downloadedFiles(run.downloads));
  const recording = run.recording?.status === 'completed' && sameOrigin(run.recording.url);
  if (recording) {
    parts.push(
      el('h4', {}, 'Recording'),
      el(
        'figure',
        { class: 'recording' },
        el('img', { src: recording, alt: `Recording of the run: the page at each of its ${run.steps.length} steps` }),
        el('figcaption', {}, el('a', { href: recording, download: `run-${run.id}.gif` }, 'Download the recording (GIF)')),
      ),
    );
  }
  body.replaceChildren(...parts);
  $('result').hidden = false;
}

/** The run's downloads, each saved on a click: the bytes need the API key, so a plain link cannot fetch them. */
function downloadedFiles(/** @type {Download[]} */ files) {
  const save = async (/** @type {Download} */ file, /** @type {HTMLButtonElement} */ button) => {
    const url = sameOrigin(file.url);
    if (!url) return;
    button.disabled = true;
    try {
      const href = URL.createObjectURL(await fetchFile(url));
      el('a', { href, download: file.name }).click();
      setTimeout(() => URL.revokeObjectURL(href), 60_000);
      button.textContent = 'Saved';
    } catch (error) {
      button.textContent = `Not saved: ${messageOf(error)}`;
    } finally {
      button.disabled = false;
    }
  };
  return el(
    'ul',
    { class: 'run-files' },
    ...files.map((file) => {
      /** @type {HTMLButtonElement} */
      const button = el('button', { type: 'button' }, 'Save');
      button.addEventListener('click', () => void save(file, button));
      return el('li', {}, `${file.name} (${file.size.toLocaleString()} bytes) `, button);
    }),
  );
}

/** A spreadsheet cell that cannot run as a formula (=, +, -, @ lead one in Excel and Calc). */
const csvCell = (/** @type {string} */ text) => {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/**
 * The data table as CSV (RFC 4180, CRLF) and JSON files to download.
 * @param {Record<string, unknown>[]} rows
 * @param {string[]} columns
 * @param {(value: unknown) => string} cell
 */
function downloads(rows, columns, cell) {
  const csv =
    [columns, ...rows.map((row) => columns.map((column) => cell(row[column])))].map((line) => line.map(csvCell).join(',')).join('\r\n') +
    '\r\n';
  const file = (/** @type {string} */ text, /** @type {string} */ type) => URL.createObjectURL(new Blob([text], { type }));
  const name = `run-${view.run?.id ?? 'data'}`;
  return el(
    'p',
    { class: 'downloads' },
    el('a', { href: file(csv, 'text/csv;charset=utf-8'), download: `${name}.csv` }, 'Download CSV'),
    el('a', { href: file(JSON.stringify(rows, null, 2), 'application/json'), download: `${name}.json` }, 'Download JSON'),
  );
}

/** @returns {row is Record<string, unknown>} */
const isRecord = (/** @type {unknown} */ row) => !!row && typeof row === 'object' && !Array.isArray(row);

function dataTable(/** @type {unknown[]} */ rows) {
  const objects = rows.filter(isRecord);
  if (!objects.length) return el('p', { class: 'muted' }, 'No data table.');
  /** @type {string[]} */
  const columns = [];
  for (const row of objects) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  const cell = (/** @type {unknown} */ value) =>
    value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  const captionId = 'data-table-caption';
  const table = el(
    'table',
    {},
    el('caption', { id: captionId }, `Data table: ${objects.length} ${objects.length === 1 ? 'row' : 'rows'}`),
    el('thead', {}, el('tr', {}, ...columns.map((column) => el('th', { scope: 'col' }, column)))),
    el('tbody', {}, ...objects.map((row) => el('tr', {}, ...columns.map((column) => el('td', {}, cell(row[column])))))),
  );
  // Scrollable by keyboard when wider than the page.
  return el(
    'div',
    {},
    el('div', { class: 'table-wrap', role: 'region', 'aria-labelledby': captionId, tabindex: '0' }, table),
    downloads(objects, columns, cell),
  );
}

$('stop-run').addEventListener('click', async () => {
  // aria-disabled rather than disabled while the request runs: the button keeps the focus.
  const button = $('stop-run');
  const run = view.run;
  if (!run || button.getAttribute('aria-disabled') === 'true') return;
  button.setAttribute('aria-disabled', 'true');
  $('run-message').textContent = '';
  try {
    await gql(STOP, { taskId: run.taskId, runId: run.id });
  } catch (error) {
    if (error instanceof AuthError) return expired();
    $('run-message').textContent =
      codeOf(error) === 'CONFLICT' ? 'The run had already ended.' : `The run could not be stopped: ${messageOf(error)}`;
  } finally {
    button.removeAttribute('aria-disabled');
  }
});

$('rerun-task').addEventListener('click', async () => {
  const button = $('rerun-task');
  const taskId = view.taskId;
  if (!taskId || button.getAttribute('aria-disabled') === 'true') return;
  button.setAttribute('aria-disabled', 'true');
  $('run-message').textContent = '';
  try {
    const run = (await gql(RERUN, { id: taskId })).rerunTask;
    await loadTask(taskId, false);
    location.hash = `#/task/${encodeURIComponent(taskId)}/run/${encodeURIComponent(run.id)}`;
  } catch (error) {
    if (error instanceof AuthError) return expired();
    $('run-message').textContent = `The task could not be run again: ${messageOf(error)}`;
  } finally {
    button.removeAttribute('aria-disabled');
  }
});

// ——— a new task ———

/** @type {Record<string, string>} */
const NEW_TASK_FIELDS = {
  task: 'new-task-text',
  name: 'new-task-name',
  startUrl: 'new-task-url',
  maxSteps: 'new-task-steps',
  profile: 'new-task-profile',
  maxTokens: 'new-task-tokens',
  maxCostUsd: 'new-task-cost',
  files: 'new-task-files',
};

/** The most files a task takes (the server says why past it). */
const MAX_FILES = 10;

/** A file as the task API takes it: its name, type and bytes as base64. */
async function fileEntry(/** @type {File} */ file) {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  // In slices: String.fromCharCode takes a bounded number of arguments.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { name: file.name, content: btoa(binary), ...(file.type ? { mimeType: file.type } : {}) };
}

/**
 * The tool definitions to pick from: Almanac's built-in ones (form_input, chosen by default) and the
 * key owner's saved ones (GraphQL savedTools). `choose` names one to tick (one just saved).
 * @param {string | null} [choose]
 */
async function loadTools(choose = null) {
  const seq = ++view.toolsSeq;
  const status = $('tools-status');
  if (!view.tools) status.textContent = 'Loading the tools…';
  try {
    const tools = (await gql(TOOLS)).savedTools;
    if (seq !== view.toolsSeq) return;
    renderToolChoices(tools, choose);
    status.textContent = '';
  } catch (error) {
    if (error instanceof AuthError) return expired();
    if (seq === view.toolsSeq) status.textContent = `Could not load the tools: ${messageOf(error)}`;
  }
}

/** The ids of the ticked tools. */
const tickedTools = () => new Set([...$('tool-choices').querySelectorAll('input')].filter((box) => box.checked).map((box) => box.value));

/**
 * @param {SavedTool[]} tools
 * @param {string | null} choose
 */
function renderToolChoices(tools, choose) {
  // What was ticked stays ticked across a reload of the list.
  const ticked = tickedTools();
  const known = new Set((view.tools ?? []).map((tool) => tool.id));
  view.tools = tools;
  const items = tools.map((tool, i) => {
    const id = `tool-choice-${i}`;
    const description = tool.definition?.function?.description;
    const box = el('input', { type: 'checkbox', id, value: tool.id, checked: tool.builtIn });
    box.checked = known.has(tool.id) ? ticked.has(tool.id) : tool.builtIn || tool.id === choose;
    const label = el(
      'label',
      { for: id },
      el('code', {}, tool.name),
      tool.builtIn ? ' (built in)' : '',
      description ? ` — ${description}` : '',
    );
    // The owner's own definitions can be deleted here (built-in ones cannot).
    const remove = tool.builtIn
      ? null
      : el('button', { type: 'button', class: 'secondary small', 'data-tool-id': tool.id, 'aria-label': `Delete ${tool.name}` }, 'Delete');
    return el('li', {}, box, label, remove);
  });
  $('tool-choices').replaceChildren(...items);
  if (!tools.length) $('tools-status').textContent = 'No tools.';
}

$('tool-choices').addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-tool-id]') : null;
  if (!(button instanceof HTMLButtonElement) || button.getAttribute('aria-disabled') === 'true') return;
  button.setAttribute('aria-disabled', 'true');
  const status = $('tools-status');
  try {
    const deleted = (await gql(DELETE_TOOL, { id: button.dataset.toolId })).deleteSavedTool;
    await loadTools();
    status.textContent = `Deleted "${deleted.name}". Tasks created with it keep their copy.`;
    // The button is gone: the focus goes to the list's first choice.
    $('tool-choices').querySelector('input')?.focus();
  } catch (error) {
    if (error instanceof AuthError) return expired();
    button.removeAttribute('aria-disabled');
    status.textContent = `Could not delete the tool: ${messageOf(error)}`;
  }
});

const chosenTools = () => {
  const ticked = tickedTools();
  return (view.tools ?? []).filter((tool) => ticked.has(tool.id)).map((tool) => tool.definition);
};

function toolJsonError(/** @type {string} */ message) {
  $('new-tool-json-error').textContent = message;
  if (message) $textarea('new-tool-json').setAttribute('aria-invalid', 'true');
  else $textarea('new-tool-json').removeAttribute('aria-invalid');
}

$('save-tool-button').addEventListener('click', async () => {
  const button = $('save-tool-button');
  if (button.getAttribute('aria-disabled') === 'true') return;
  toolJsonError('');
  const text = $textarea('new-tool-json').value.trim();
  let tool;
  try {
    if (!text) throw new Error('Paste or type a tool definition first.');
    tool = JSON.parse(text);
  } catch (error) {
    toolJsonError(text ? `This is not valid JSON: ${messageOf(error)}` : messageOf(error));
    $textarea('new-tool-json').focus();
    return;
  }
  button.setAttribute('aria-disabled', 'true');
  try {
    const saved = (await gql(SAVE_TOOL, { tool })).saveTool;
    $textarea('new-tool-json').value = '';
    await loadTools(saved.id);
    $('tools-status').textContent = `Saved "${saved.name}"; it is ticked for this task.`;
    const box = [...$('tool-choices').querySelectorAll('input')].find((input) => input.value === saved.id);
    box?.focus();
  } catch (error) {
    if (error instanceof AuthError) return expired();
    // The API names the rule the definition broke (tool.function.name must match …).
    toolJsonError(messageOf(error));
    $textarea('new-tool-json').focus();
  } finally {
    button.removeAttribute('aria-disabled');
  }
});

function fieldError(/** @type {string} */ name, /** @type {string} */ message) {
  const input = $(NEW_TASK_FIELDS[name]);
  $(`${NEW_TASK_FIELDS[name]}-error`).textContent = message;
  if (message) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}

$('new-task').addEventListener('submit', async (event) => {
  event.preventDefault();
  const form = byId('new-task', HTMLFormElement);
  const button = buttonOf('new-task');
  if (button.getAttribute('aria-disabled') === 'true') return;
  for (const name of Object.keys(NEW_TASK_FIELDS)) fieldError(name, '');
  $('new-task-error').textContent = '';
  const task = $textarea('new-task-text').value.trim();
  const name = $input('new-task-name').value.trim();
  const startUrl = $input('new-task-url').value.trim();
  const steps = $input('new-task-steps').value.trim();
  const profile = $input('new-task-profile').value.trim();
  const tokens = $input('new-task-tokens').value.trim();
  const cost = $input('new-task-cost').value.trim();
  /** @type {[string, string][]} */
  const problems = [];
  if (!task) problems.push(['task', 'Say what the agent should do.']);
  if (startUrl && !/^https?:\/\/\S+$/i.test(startUrl)) problems.push(['startUrl', 'Give an address that starts with http:// or https://.']);
  if (steps && !(/^\d+$/.test(steps) && Number(steps) >= 1 && Number(steps) <= 500))
    problems.push(['maxSteps', 'Give a whole number from 1 to 500.']);
  if (profile && !/^[A-Za-z0-9_.-]{1,64}$/.test(profile))
    problems.push(['profile', 'Use letters, digits, "_", "." or "-" (at most 64), without spaces.']);
  if (tokens && !(/^\d+$/.test(tokens) && Number(tokens) >= 1 && Number(tokens) <= 1e9))
    problems.push(['maxTokens', 'Give a whole number from 1 to 1,000,000,000.']);
  if (cost && !(Number(cost) > 0 && Number(cost) <= 1e6)) problems.push(['maxCostUsd', 'Give an amount over 0, at most 1,000,000.']);
  const files = [...($input('new-task-files').files ?? [])];
  if (files.length > MAX_FILES) problems.push(['files', `Choose at most ${MAX_FILES} files.`]);
  if (problems.length) {
    for (const [name, message] of problems) fieldError(name, message);
    $(NEW_TASK_FIELDS[problems[0][0]]).focus();
    return;
  }
  button.setAttribute('aria-disabled', 'true');
  try {
    // Created before the tool list arrived: wait for it, so the chosen (default) tools are sent.
    if (!view.tools) await loadTools();
    if (!view.tools) {
      $('new-task-error').textContent = 'The tool list could not be loaded, so the task was not created. Try again.';
      return;
    }
    /** @type {{ task: string, tools: unknown[], name?: string, startUrl?: string, maxSteps?: number, profile?: string, maxTokens?: number, maxCostUsd?: number }} */
    const input = { task, tools: chosenTools() };
    if (profile) input.profile = profile;
    if (name) input.name = name;
    if (startUrl) input.startUrl = startUrl;
    if (steps) input.maxSteps = Number(steps);
    if (tokens) input.maxTokens = Number(tokens);
    if (cost) input.maxCostUsd = Number(cost);
    const taskId = files.length
      ? await createTaskWithFiles({ ...input, files: await Promise.all(files.map(fileEntry)) })
      : (await gql(CREATE, { input })).createTask.id;
    form.reset();
    if (view.tools) renderToolChoices(view.tools, null);
    location.hash = `#/task/${encodeURIComponent(taskId)}`;
  } catch (error) {
    if (error instanceof AuthError) return expired();
    // A refused field is named by the API (GraphQL's extensions.params, or the task API's message
    // "files[1] …"): show the reason beside it.
    const params = (error instanceof ApiError && error.params) || {};
    if (error instanceof ApiError && /^files\b/.test(error.message)) params.files = error.message;
    const field = Object.keys(params).find((name) => NEW_TASK_FIELDS[name]);
    if (field) {
      fieldError(field, params[field]);
      $(NEW_TASK_FIELDS[field]).focus();
    } else {
      $('new-task-error').textContent = `The task could not be created: ${messageOf(error)}`;
    }
  } finally {
    button.removeAttribute('aria-disabled');
  }
});

// ——— browser profiles ———

/** The owner's profiles: offered as names in the new-task form, listed with a delete button in the key's settings. */
async function loadProfiles() {
  const status = $('profiles-status');
  try {
    /** @type {BrowserProfile[]} */
    const profiles = (await gql(PROFILES)).browserProfiles;
    $('profile-names').replaceChildren(...profiles.map((profile) => el('option', { value: profile.name })));
    const items = profiles.map((profile) =>
      el(
        'li',
        {},
        el('code', {}, profile.name),
        ` — ${profile.cookies} cookie${profile.cookies === 1 ? '' : 's'}, saved ${new Date(profile.updatedAt).toLocaleString()} `,
        el(
          'button',
          { type: 'button', class: 'secondary small', 'data-profile': profile.name, 'aria-label': `Delete ${profile.name}` },
          'Delete',
        ),
      ),
    );
    $('profile-list').replaceChildren(...items);
    status.textContent = profiles.length ? '' : 'No profiles yet: name one when you create a task.';
  } catch (error) {
    if (error instanceof AuthError) return expired();
    status.textContent = `Could not load the profiles: ${messageOf(error)}`;
  }
}

$('profile-list').addEventListener('click', async (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-profile]') : null;
  if (!(button instanceof HTMLButtonElement) || button.getAttribute('aria-disabled') === 'true') return;
  button.setAttribute('aria-disabled', 'true');
  try {
    const deleted = (await gql(DELETE_PROFILE, { name: button.dataset.profile })).deleteBrowserProfile;
    await loadProfiles();
    $('profiles-status').textContent = `Deleted "${deleted.name}". Tasks naming it start logged out.`;
    $('key-settings-title').focus();
  } catch (error) {
    if (error instanceof AuthError) return expired();
    button.removeAttribute('aria-disabled');
    $('profiles-status').textContent = `Could not delete the profile: ${messageOf(error)}`;
  }
});

// ——— the key's settings ———

async function loadKeySettings() {
  const message = $('key-settings-message');
  message.textContent = 'Loading…';
  keyWebhookError('');
  try {
    const key = (await gql(KEY)).apiKey;
    view.keyId = key.id;
    $('key-settings-which').textContent = `The API key you signed in with: ${key.prefix}…${key.label ? ` (${key.label})` : ''}.`;
    $input('key-webhook-url').value = key.webhookUrl ?? '';
    message.textContent = '';
  } catch (error) {
    if (error instanceof AuthError) return expired();
    message.textContent = `Could not load the key's settings: ${messageOf(error)}`;
  }
}

function keyWebhookError(/** @type {string} */ text) {
  $('key-webhook-url-error').textContent = text;
  if (text) $input('key-webhook-url').setAttribute('aria-invalid', 'true');
  else $input('key-webhook-url').removeAttribute('aria-invalid');
}

$('key-settings').addEventListener('submit', async (event) => {
  event.preventDefault();
  const button = buttonOf('key-settings');
  if (button.getAttribute('aria-disabled') === 'true' || view.keyId === null) return;
  keyWebhookError('');
  $('key-settings-message').textContent = '';
  const url = $input('key-webhook-url').value.trim();
  if (url && !/^https?:\/\/\S+$/i.test(url)) {
    keyWebhookError('Give an address that starts with http:// or https://, or leave it empty.');
    $input('key-webhook-url').focus();
    return;
  }
  button.setAttribute('aria-disabled', 'true');
  try {
    const key = (await gql(SET_WEBHOOK, { id: view.keyId, url: url || null })).setApiKeyWebhookUrl;
    $input('key-webhook-url').value = key.webhookUrl ?? '';
    $('key-settings-message').textContent = key.webhookUrl
      ? `Saved. New tasks of this key without a webhook of their own send their events to ${key.webhookUrl}.`
      : 'Saved. This key has no default webhook.';
  } catch (error) {
    if (error instanceof AuthError) return expired();
    keyWebhookError(paramOf(error, 'webhookUrl') ?? `The webhook could not be saved: ${messageOf(error)}`);
    $input('key-webhook-url').focus();
  } finally {
    button.removeAttribute('aria-disabled');
  }
});

// ——— start ———

async function start() {
  const key = storedKey();
  if (!key) return showSignin();
  try {
    await gql(CHECK, {}, key);
    enter(false);
  } catch (error) {
    if (error instanceof AuthError) signOut('Your API key is no longer accepted. Sign in again.');
    else showSignin(`Could not reach Almanac: ${messageOf(error)}`);
  }
}

void start();
