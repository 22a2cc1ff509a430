// @ts-check
// One run, live: its status, steps, tool call, result, recording and downloads.
import { AuthError, fetchFile, gql, messageOf, subscribe } from './api.js';
import { el, time } from './dom.js';
import { toolCallForm } from './tool-form.js';
import { startLiveView, stopLiveView } from './live-view.js';
import { expired, loadTask } from './console.js';
import { $, ANSWER, RERUN, RUN, STOP, TITLE, codeOf, ended, setBadge, statusLabel, view } from './state.js';
/** @typedef {import('./state.js').Download} Download */
/** @typedef {import('./state.js').Run} Run */
/** @typedef {import('./state.js').Step} Step */
/** @typedef {import('./state.js').StepItem} StepItem */

// ——— one run, live ———

export function closeRun() {
  document.title = TITLE;
  stopLiveView();
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

export function openRun(/** @type {string | null} */ runId) {
  closeRun();
  if (!runId) {
    setBadge($('run-badge'), null);
    $('run-live').textContent = 'This task has no runs.';
    return;
  }
  view.runId = runId;
  if (view.taskId) startLiveView(view.taskId, runId);
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
export const usd = (/** @type {number} */ amount) =>
  amount.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumSignificantDigits: 4 });

export function renderRun(/** @type {Run} */ run) {
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

export function renderToolCall(/** @type {Run} */ run) {
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

export function renderSteps(/** @type {Run} */ run) {
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

export const isWeb = (/** @type {string | null} */ url) => /^https?:\/\//i.test(url ?? '');

/** The screenshot's address on this origin (the API gives absolute URLs under SITE_URL). */
export function sameOrigin(/** @type {string} */ url) {
  try {
    const parsed = new URL(url, location.href);
    return parsed.pathname + parsed.search;
  } catch {
    return null;
  }
}

/** @returns {StepItem} */
export function stepItem(/** @type {Step} */ step) {
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

export function renderResult(/** @type {Run} */ run) {
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
  // The Playwright trace (none for tasks with secrets): its URL carries the run's token, as the GIF's does.
  const trace = run.traceUrl && sameOrigin(run.traceUrl);
  if (trace)
    parts.push(
      el(
        'p',
        {},
        el('a', { href: trace, download: `trace-${run.id}.zip` }, 'Download trace'),
        ' (open it with ',
        el('code', {}, 'npx playwright-core show-trace --port 0 trace.zip'),
        ')',
      ),
    );
  body.replaceChildren(...parts);
  $('result').hidden = false;
}

/** The run's downloads, each saved on a click: the bytes need the API key, so a plain link cannot fetch them. */
export function downloadedFiles(/** @type {Download[]} */ files) {
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
export const csvCell = (/** @type {string} */ text) => {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
};

/**
 * The data table as CSV (RFC 4180, CRLF) and JSON files to download.
 * @param {Record<string, unknown>[]} rows
 * @param {string[]} columns
 * @param {(value: unknown) => string} cell
 */
export function downloads(rows, columns, cell) {
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
export const isRecord = (/** @type {unknown} */ row) => !!row && typeof row === 'object' && !Array.isArray(row);

export function dataTable(/** @type {unknown[]} */ rows) {
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
