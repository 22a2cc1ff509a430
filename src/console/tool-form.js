// @ts-check
// A tool call the run waits on, as a form. `form_input`-shaped arguments ({heading, description,
// fields: [{type, label, options?}]}) become a real form, one labelled control per field, and the
// answer is a JSON object keyed by label. Any other call shows its name and arguments and takes a
// text answer, sent as typed. Everything the agent chose is inserted as text, never as HTML.

import { messageOf } from './api.js';
import { el } from './dom.js';

/**
 * One field of form_input's arguments, as the agent wrote it: only `label` is checked.
 * @typedef {{
 *   label: string, type?: unknown, options?: unknown, description?: unknown, help?: unknown,
 *   default?: unknown, value?: unknown, required?: unknown, placeholder?: unknown,
 * }} FormField
 */
/** @typedef {{ heading?: unknown, description?: unknown, fields: FormField[] }} FormInput */
/** @typedef {{ id: string, name: string, parameters: unknown }} ToolCall */
/** @typedef {{ value: string, label: string }} Option */

const INPUT_TYPES = new Set([
  'text',
  'email',
  'number',
  'date',
  'password',
  'tel',
  'url',
  'time',
  'datetime-local',
  'month',
  'week',
  'color',
  'search',
  'range',
]);
/** @type {Record<string, string>} */
const ALIASES = {
  string: 'text',
  integer: 'number',
  float: 'number',
  decimal: 'number',
  phone: 'tel',
  datetime: 'datetime-local',
  multiline: 'textarea',
  long_text: 'textarea',
  boolean: 'checkbox',
  bool: 'checkbox',
  dropdown: 'select',
  choice: 'select',
};

let forms = 0;

/**
 * Whether the arguments have form_input's shape: a `fields` list of objects with a label.
 * @param {unknown} parameters
 * @returns {parameters is FormInput}
 */
export function isFormInput(parameters) {
  if (parameters === null || typeof parameters !== 'object' || !('fields' in parameters)) return false;
  const { fields } = parameters;
  return (
    Array.isArray(fields) &&
    fields.every((field) => field && typeof field === 'object' && 'label' in field && typeof field.label === 'string')
  );
}

/** @param {FormField} field @returns {Option[]} */
const optionsOf = (field) =>
  (Array.isArray(field.options) ? field.options : [])
    .map((/** @type {unknown} */ option) => {
      if (!option || typeof option !== 'object') return { value: String(option), label: String(option) };
      const { value, label } = /** @type {{ value?: unknown, label?: unknown }} */ (option);
      return { value: String(value ?? label ?? ''), label: String(label ?? value ?? '') };
    })
    .filter((option) => option.label !== '');

/**
 * What a field becomes: an <input type>, 'textarea', 'checkbox', 'select', 'radio' or 'checkboxes'.
 * @param {FormField} field
 */
export function controlKind(field) {
  let type = String(field.type ?? 'text')
    .trim()
    .toLowerCase();
  type = ALIASES[type] ?? type;
  if (optionsOf(field).length) {
    if (type === 'radio') return 'radio';
    if (type === 'checkbox' || type === 'multiselect') return 'checkboxes';
    return 'select';
  }
  if (type === 'textarea' || type === 'checkbox') return type;
  return INPUT_TYPES.has(type) ? type : 'text';
}

/** Labels made unique (a repeated label gets " (2)", " (3)"…), so they can key the answer. */
function answerKeys(/** @type {FormField[]} */ fields) {
  /** @type {Map<string, number>} */
  const seen = new Map();
  return fields.map((field, i) => {
    const label = field.label.trim() || `Field ${i + 1}`;
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    return n === 1 ? label : `${label} (${n})`;
  });
}

/**
 * @param {FormField} field
 * @param {string} key
 * @param {string} id
 * @param {string | null} hintId
 * @returns {{ wrap: HTMLElement, read: () => unknown }}
 */
function fieldControl(field, key, id, hintId) {
  const kind = controlKind(field);
  /** @type {Record<string, string>} */
  const common = { id, name: key };
  if (hintId) common['aria-describedby'] = hintId;
  const wrap = el('div', { class: `field field-${kind}` });
  const hint = hintId ? el('p', { class: 'hint', id: hintId }, String(field.description ?? field.help)) : null;
  const initial = field.default ?? field.value;

  if (kind === 'radio' || kind === 'checkboxes') {
    const type = kind === 'radio' ? 'radio' : 'checkbox';
    const group = el('fieldset', { class: 'choices', ...(hintId ? { 'aria-describedby': hintId } : {}) }, el('legend', {}, key));
    optionsOf(field).forEach((option, i) => {
      const optionId = `${id}-${i}`;
      const input = el('input', { type, id: optionId, name: key, value: option.value });
      if (type === 'radio' && field.required && i === 0) input.required = true;
      if (Array.isArray(initial) ? initial.map(String).includes(option.value) : String(initial) === option.value) input.checked = true;
      group.append(el('div', { class: 'choice' }, input, el('label', { for: optionId }, option.label)));
    });
    wrap.append(group);
    if (hint) wrap.append(hint);
    return {
      wrap,
      read: () =>
        type === 'radio'
          ? ([...group.querySelectorAll('input')].find((i) => i.checked)?.value ?? null)
          : [...group.querySelectorAll('input')].filter((i) => i.checked).map((i) => i.value),
    };
  }

  const label = el('label', { for: id }, key);
  /** @type {HTMLSelectElement | HTMLTextAreaElement | HTMLInputElement} */
  let control;
  if (kind === 'select') {
    const select = el('select', common);
    if (!field.required) select.append(el('option', { value: '' }, '—'));
    for (const option of optionsOf(field)) select.append(el('option', { value: option.value }, option.label));
    if (initial !== undefined) select.value = String(initial);
    control = select;
  } else if (kind === 'textarea') {
    control = el('textarea', { ...common, rows: '4' });
    if (initial !== undefined) control.value = String(initial);
  } else {
    const input = el('input', { ...common, type: kind });
    if (kind === 'checkbox') input.checked = initial === true || initial === 'true';
    else if (initial !== undefined) input.value = String(initial);
    if (kind === 'email') input.autocomplete = 'email';
    if (kind === 'password') input.autocomplete = 'off';
    control = input;
  }
  if (field.required && kind !== 'checkbox') control.required = true;
  if (typeof field.placeholder === 'string' && !(control instanceof HTMLSelectElement) && kind !== 'checkbox')
    control.placeholder = field.placeholder;
  if (kind === 'checkbox') wrap.append(control, label);
  else wrap.append(label, control);
  if (hint) wrap.append(hint);

  const read = () => {
    if (control instanceof HTMLInputElement && kind === 'checkbox') return control.checked;
    if (kind === 'number' || kind === 'range') return control.value === '' ? null : Number(control.value);
    return control.value;
  };
  return { wrap, read };
}

/**
 * Builds the form for `toolCall` ({id, name, parameters}). `submit(input)` sends the answer (a
 * string) and resolves when it was accepted; the form then stays, disabled, with a confirmation.
 * @param {ToolCall} toolCall
 * @param {(answer: string) => Promise<unknown>} submit
 */
export function toolCallForm(toolCall, submit) {
  const n = ++forms;
  const parameters = toolCall.parameters;
  const titleId = `tool-title-${n}`;
  const form = el('form', { class: 'tool-form', 'aria-labelledby': titleId });
  const fieldset = el('fieldset', { class: 'plain' });
  /** @type {() => string} */
  let answer;

  if (isFormInput(parameters)) {
    const heading =
      typeof parameters.heading === 'string' && parameters.heading.trim() ? parameters.heading : `The agent asks (${toolCall.name})`;
    form.append(el('h3', { id: titleId, tabindex: '-1' }, heading));
    if (typeof parameters.description === 'string' && parameters.description.trim())
      form.append(el('p', { class: 'description' }, parameters.description));
    const keys = answerKeys(parameters.fields);
    const readers = parameters.fields.map((field, i) => {
      const hasHint = typeof (field.description ?? field.help) === 'string';
      const { wrap, read } = fieldControl(field, keys[i], `tool-${n}-field-${i}`, hasHint ? `tool-${n}-hint-${i}` : null);
      fieldset.append(wrap);
      return read;
    });
    answer = () => JSON.stringify(Object.fromEntries(keys.map((key, i) => [key, readers[i]()])));
  } else {
    form.append(el('h3', { id: titleId, tabindex: '-1' }, 'The agent calls ', el('code', {}, toolCall.name)));
    const textarea = el('textarea', {
      id: `tool-${n}-answer`,
      name: 'answer',
      rows: '4',
      required: '',
      'aria-describedby': `tool-${n}-args`,
    });
    const args = el('pre', { class: 'arguments', id: `tool-${n}-args` }, JSON.stringify(parameters, null, 2));
    fieldset.append(
      el('p', { class: 'label' }, 'With these arguments:'),
      args,
      el('div', { class: 'field' }, el('label', { for: `tool-${n}-answer` }, 'Your answer'), textarea),
    );
    answer = () => textarea.value;
  }

  const button = el('button', { type: 'submit' }, 'Send answer');
  const message = el('p', { class: 'form-message', role: 'alert' });
  fieldset.append(el('div', { class: 'actions' }, button));
  form.append(fieldset, message);

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    message.textContent = '';
    message.className = 'form-message';
    const focused = document.activeElement;
    // Disabling the fieldset would drop the focus to <body> while the answer travels, and the run's
    // next update may replace this form before the answer is acknowledged: keep the focus inside.
    message.setAttribute('role', 'status');
    message.tabIndex = -1;
    message.textContent = 'Sending your answer…';
    message.focus();
    fieldset.disabled = true;
    try {
      await submit(answer());
      message.classList.add('done');
      message.textContent = 'Answer sent. The run continues.';
      if (message.isConnected) message.focus();
    } catch (error) {
      fieldset.disabled = false;
      message.setAttribute('role', 'alert');
      message.classList.add('error');
      message.textContent = `Your answer was not accepted: ${messageOf(error)}`;
      if (focused instanceof HTMLElement && form.contains(focused)) focused.focus();
    }
  });
  return form;
}
