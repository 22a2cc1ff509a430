// @ts-check
// The new-task form: instructions, start URL, tools, files, budgets and secrets.
import { ApiError, AuthError, createTaskWithFiles, gql, messageOf } from './api.js';
import { byId, el } from './dom.js';
import { expired } from './console.js';
import { $, $input, $textarea, CREATE, DELETE_TOOL, SAVE_TOOL, TOOLS, buttonOf, view } from './state.js';
/** @typedef {import('./state.js').SavedTool} SavedTool */

// ——— a new task ———

/** @type {Record<string, string>} */
export const NEW_TASK_FIELDS = {
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
export const MAX_FILES = 10;

/** A file as the task API takes it: its name, type and bytes as base64. */
export async function fileEntry(/** @type {File} */ file) {
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
export async function loadTools(choose = null) {
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
export const tickedTools = () =>
  new Set([...$('tool-choices').querySelectorAll('input')].filter((box) => box.checked).map((box) => box.value));

/**
 * @param {SavedTool[]} tools
 * @param {string | null} choose
 */
export function renderToolChoices(tools, choose) {
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

export const chosenTools = () => {
  const ticked = tickedTools();
  return (view.tools ?? []).filter((tool) => ticked.has(tool.id)).map((tool) => tool.definition);
};

export function toolJsonError(/** @type {string} */ message) {
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

export function fieldError(/** @type {string} */ name, /** @type {string} */ message) {
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
