// @ts-check
// The task console: sign in with an API key, create tasks and run them again, follow the key's
// tasks and a run live (GraphQL subscriptions over server-sent events: the page never polls),
// answer the agent's tool calls, stop a run, watch its recording and download its data, name tasks,
// pick and save tool definitions, and set the key's default webhook. Routes live in the URL hash:
// #/new, #/key, #/task/<taskId> and #/task/<taskId>/run/<runId>.
// The page is split along its sections: state.js (shared state, queries), task-list.js, run-view.js,
// new-task.js, profiles.js and key-settings.js; this module signs in, routes and starts.

import { AuthError, forgetKey, gql, messageOf, storeKey, storedKey, subscribe } from './api.js';
import { el, time } from './dom.js';
import { loadKeySettings } from './key-settings.js';
import { loadTools } from './new-task.js';
import { loadProfiles } from './profiles.js';
import { closeRun, openRun } from './run-view.js';
import { $, $input, CHECK, RENAME, TASK, TASKS, TITLE, buttonOf, codeOf, paramOf, setBadge, statusLabel, view } from './state.js';
import { markCurrent, renderTasks } from './task-list.js';
/** @typedef {import('./state.js').Task} Task */

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

export const expired = () => signOut('Your API key is no longer accepted. Sign in again.');

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
export async function loadTask(taskId, fresh) {
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
export function showTaskName(/** @type {string} */ readableName) {
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

// ——— start ———

export async function start() {
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
