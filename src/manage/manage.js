// @ts-check
// The calendar editor: sign in with an API key, then list, search, create, edit, trash and restore
// events, venues, organizers, categories and tags — through /graphql only, with the task console's
// API module (same key storage, same errors). The API decides what the key's role may do; the page
// shows its answers (field errors next to their fields) and hides what postRights says is not
// allowed. A form's values are kept in sessionStorage until they are saved, so a failed save or a
// reload loses nothing. Routes live in the URL hash: #/events, #/events/new, #/events/<id>…

import { ApiError, AuthError, forgetKey, gql, messageOf, storeKey, storedKey } from '../console/api.js';
import { byId, el } from '../console/dom.js';
import { federationView } from './federation.js';
import { SECTIONS, emptyRecurrence, organizersOf } from './sections.js';

const $ = (/** @type {string} */ id) => byId(id);
const DRAFTS = 'almanac.manage.draft.';
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const EXCEPTION_HINT = 'One a line: YYYY-MM-DD (at the event’s start time), or YYYY-MM-DD HH:MM:SS';

const WHO = `query ManageWho { apiKey { login label } }`;
/** The venues or organizers a picker offers: the first matches of its search (the search reaches the rest). */
const PICKS = {
  venue: `query ManagePickVenues($search: String) { found: venues(filter: { search: $search }, page: { perPage: 50 }) { total items { id name } } }`,
  organizer: `query ManagePickOrganizers($search: String) { found: organizers(filter: { search: $search }, page: { perPage: 50 }) { total items { id name } } }`,
};

// ---- signing in -------------------------------------------------------------------------------

async function signIn(/** @type {string} */ key) {
  const data = await gql(WHO, {}, key);
  storeKey(key);
  return data.apiKey;
}

function showSignedIn(/** @type {{login: string, label: string}} */ who) {
  $('signin').hidden = true;
  $('workspace').hidden = false;
  $('sections').hidden = false;
  $('account').hidden = false;
  $('who').textContent = `Signed in as ${who.login}`;
  route();
}

function signOut(/** @type {string} */ message = '') {
  forgetKey();
  $('workspace').hidden = true;
  $('sections').hidden = true;
  $('account').hidden = true;
  $('signin').hidden = false;
  $('signin-error').textContent = message;
  /** @type {HTMLInputElement} */ ($('api-key')).focus();
}

/** Runs an API call; a refused key signs out. */
async function call(/** @type {string} */ query, /** @type {Record<string, unknown>} */ variables = {}) {
  try {
    return await gql(query, variables);
  } catch (error) {
    if (error instanceof AuthError) signOut(error.message);
    throw error;
  }
}

// ---- routing ----------------------------------------------------------------------------------

function route() {
  if ($('workspace').hidden) return;
  const [, name = 'events', id] = location.hash.replace(/^#\/?/, '#/').split('/');
  const section = SECTIONS[name] ?? SECTIONS.events;
  const current = name === 'federation' ? name : section.name;
  for (const link of document.querySelectorAll('#sections a')) {
    if (link.getAttribute('href') === `#/${current}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  if (name === 'federation') return federationView($('workspace'), call);
  if (id === undefined) listView(section);
  else formView(section, id === 'new' ? null : Number(id));
}

// ---- lists ------------------------------------------------------------------------------------

/**
 * A page of a section's records, with its search, trash switch and pager; each keeps the others.
 * @param {import('./sections.js').Section} section
 */
function listView(section, search = '', trashed = false, note = '', page = 1) {
  const workspace = $('workspace');
  const heading = el('h1', { id: 'view-title', tabindex: '-1' }, section.plural);
  const searchInput = /** @type {HTMLInputElement} */ (el('input', { id: 'list-search', type: 'search', value: search }));
  const trashBox = /** @type {HTMLInputElement} */ (el('input', { id: 'list-trashed', type: 'checkbox', checked: trashed }));
  const status = el('p', { id: 'list-status', class: 'muted', role: 'status' }, 'Loading…');
  const list = el('ul', { class: 'records', 'aria-labelledby': 'view-title' });
  const pager = el('nav', { class: 'pager', 'aria-label': 'Pages' });
  const form = el(
    'form',
    { class: 'list-tools', role: 'search', 'aria-label': `Search ${section.plural.toLowerCase()}` },
    el('div', { class: 'field' }, el('label', { for: 'list-search' }, 'Search'), searchInput),
    section.trash ? el('div', { class: 'field-checkbox' }, trashBox, el('label', { for: 'list-trashed' }, 'In the trash')) : null,
    el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'secondary' }, 'Search')),
  );
  // What was searched stays with the pages, whatever is typed in the box since.
  const reload = (/** @type {string} */ said = '', at = page) => listView(section, search, trashed, said, at);
  form.addEventListener('submit', (/** @type {Event} */ event) => {
    event.preventDefault();
    listView(section, searchInput.value, trashBox.checked);
  });
  trashBox.addEventListener('change', () => listView(section, searchInput.value, trashBox.checked));
  workspace.replaceChildren(
    el('div', { class: 'title-row' }, heading, el('a', { class: 'button', href: `#/${section.name}/new` }, `New ${section.singular}`)),
    form,
    status,
    list,
    pager,
  );
  heading.focus();
  call(section.list, { search: search || undefined, trashed, page })
    .then((data) => {
      const { items, total, totalPages } = section.page(data);
      // A page emptied by a trash or delete: show the last page there is.
      if (!items.length && page > 1 && totalPages > 0) return reload(note, totalPages);
      const found = total
        ? `${total} ${total === 1 ? section.singular : section.plural.toLowerCase()}${totalPages > 1 ? `, page ${page} of ${totalPages}` : ''}.`
        : `No ${section.plural.toLowerCase()} found.`;
      status.textContent = `${note}${found}`;
      list.replaceChildren(...items.map((item) => listItem(section, item, reload)));
      const step = (/** @type {string} */ label, /** @type {number} */ to) => {
        const button = el('button', { type: 'button', class: 'secondary' }, label);
        button.addEventListener('click', () => reload('', to));
        return button;
      };
      pager.replaceChildren(
        page > 1 ? step('Previous page', page - 1) : '',
        totalPages > 1 ? el('span', { class: 'muted' }, ` Page ${page} of ${totalPages} `) : '',
        page < totalPages ? step('Next page', page + 1) : '',
      );
    })
    .catch((error) => (status.textContent = messageOf(error)));
}

/**
 * A record's row: its link, and the Trash (or Delete) and Restore buttons the API's `rights` allow
 * (terms carry none: their rights are the role's, and the API answers a refusal); a refused action
 * shows the API's error next to its button.
 * @param {import('./sections.js').Section} section @param {any} item @param {(note: string) => void} reload
 */
function listItem(section, item, reload) {
  const label = item.title ?? item.name;
  const errorId = `row-${item.id}-error`;
  const error = el('span', { id: errorId, class: 'error', role: 'alert' });
  /** @type {HTMLElement | null} */
  let button = null;
  const act = async (/** @type {string} */ query, /** @type {string} */ done) => {
    error.textContent = '';
    try {
      await call(query, { id: item.id });
      reload(`${label}: ${done}. `);
    } catch (refusal) {
      error.textContent = messageOf(refusal);
    }
  };
  const may = (/** @type {'edit' | 'delete'} */ right) => !item.rights || item.rights[right];
  if (item.status === 'TRASH') {
    if (section.restore && may('edit')) {
      button = el(
        'button',
        { type: 'button', class: 'secondary', 'aria-label': `Restore ${label}`, 'aria-describedby': errorId },
        'Restore',
      );
      button.addEventListener('click', () => act(/** @type {string} */ (section.restore), 'restored'));
    }
  } else if (section.remove && may('delete')) {
    const verb = section.trash ? 'Trash' : 'Delete';
    button = el('button', { type: 'button', class: 'danger', 'aria-label': `${verb} ${label}`, 'aria-describedby': errorId }, verb);
    button.addEventListener('click', () => act(/** @type {string} */ (section.remove), section.trash ? 'moved to the trash' : 'deleted'));
  }
  // A section's own actions on a row (a calendar source's pause, resume, run now).
  const actions = (section.rowActions?.(item) ?? []).map((action) => {
    const control = el(
      'button',
      { type: 'button', class: 'secondary', 'aria-label': `${action.label} ${label}`, 'aria-describedby': errorId },
      action.label,
    );
    control.addEventListener('click', () => act(action.query, action.done));
    return control;
  });
  return el(
    'li',
    {},
    el('a', { href: `#/${section.name}/${item.id}` }, label || '(no title)'),
    item.status ? el('span', { class: 'badge' }, item.status.toLowerCase()) : null,
    item.startDate ? el('span', { class: 'muted' }, `${item.startDate} (${item.timezone})`) : null,
    item.detail ? el('span', { class: 'muted' }, item.detail) : null,
    ...actions,
    button,
    error,
  );
}

// ---- forms ------------------------------------------------------------------------------------

/** A labelled control with a place for its error. @param {import('./sections.js').Field} field */
function control(field, prefix = 'f') {
  const id = `${prefix}-${field.name}`;
  const error = el('p', { id: `${id}-error`, class: 'error', 'data-error-for': field.name });
  const hint = field.hint ? el('p', { id: `${id}-hint`, class: 'muted' }, field.hint) : null;
  const describedBy = [hint ? `${id}-hint` : '', `${id}-error`].join(' ').trim();
  const common = { id, name: field.name, 'aria-describedby': describedBy, required: field.required };
  if (field.type === 'checkbox') {
    return el(
      'div',
      { class: 'field-checkbox' },
      el('input', { ...common, type: 'checkbox' }),
      el('label', { for: id }, field.label),
      hint,
      error,
    );
  }
  let input;
  if (field.type === 'textarea') input = el('textarea', { ...common, rows: 4 });
  else if (field.type === 'select') {
    input = el('select', common, ...(field.options ?? []).map(([value, text]) => el('option', { value }, text)));
  } else input = el('input', { ...common, type: field.type ?? 'text' });
  return el('div', { class: 'field' }, el('label', { for: id }, field.label), input, hint, error);
}

/** Every named control's value (checkboxes: booleans; byDay: a list). @param {HTMLFormElement} form */
function formState(form) {
  /** @type {Record<string, any>} */
  const state = {};
  for (const element of /** @type {any} */ (form.elements)) {
    if (!element.name) continue;
    if (element.name === 'byDay') {
      state.byDay ??= [];
      if (element.checked) state.byDay.push(element.value);
    } else state[element.name] = element.type === 'checkbox' ? element.checked : element.value;
  }
  return state;
}

/** @param {HTMLFormElement} form @param {Record<string, any>} state */
function fillForm(form, state) {
  for (const element of /** @type {any} */ (form.elements)) {
    if (!element.name || !(element.name in state)) continue;
    if (element.name === 'byDay') element.checked = (state.byDay ?? []).includes(element.value);
    else if (element.type === 'checkbox') element.checked = Boolean(state[element.name]);
    else element.value = state[element.name] ?? '';
  }
}

/** Shows the API's error next to the fields it names (extensions.params), the rest at the form's foot. */
function showErrors(/** @type {HTMLFormElement} */ form, /** @type {unknown} */ error) {
  const params = error instanceof ApiError && error.params && typeof error.params === 'object' ? error.params : null;
  let first = null;
  if (params) {
    for (const [name, reason] of Object.entries(params)) {
      // The recurrence's errors name their part first ("exdates: …"): shown at that part's field.
      const part = name === 'recurrence' ? /^(exdates|rdates):/.exec(String(reason))?.[1] : undefined;
      const slot = form.querySelector(`[data-error-for="${CSS.escape(part ?? name.split('.')[0])}"]`);
      if (!slot) continue;
      slot.textContent = String(reason);
      const input = form.querySelector(`#${slot.id.replace(/-error$/, '')}`);
      input?.setAttribute('aria-invalid', 'true');
      first ??= input;
    }
  }
  const code = error instanceof ApiError ? error.code : undefined;
  const field = code === 'COULD_NOT_CREATE_VENUE' ? 'venue' : code === 'COULD_NOT_CREATE_ORGANIZER' ? 'organizer' : null;
  const slot = field && form.querySelector(`[data-error-for="${field}"]`);
  if (slot) slot.textContent = messageOf(error);
  $('form-error').textContent = first || slot ? `Not saved: ${messageOf(error)}` : messageOf(error);
  /** @type {HTMLElement | null} */ (first ?? $('form-error'))?.focus?.();
}

/**
 * Disables a form's controls (all, or those given) while it loads (aria-busy); the returned
 * function gives them back.
 * @param {HTMLFormElement} form @param {Element[]} [controls]
 */
function holdForm(form, controls = [...form.elements]) {
  const held = /** @type {HTMLButtonElement[]} */ (controls).filter((control) => !(/** @type {HTMLButtonElement} */ (control).disabled));
  for (const control of held) control.disabled = true;
  form.setAttribute('aria-busy', 'true');
  return () => {
    for (const control of held) control.disabled = false;
    form.removeAttribute('aria-busy');
  };
}

function clearErrors(/** @type {HTMLFormElement} */ form) {
  for (const slot of form.querySelectorAll('[data-error-for]')) slot.textContent = '';
  for (const input of form.querySelectorAll('[aria-invalid]')) input.removeAttribute('aria-invalid');
  $('form-error').textContent = '';
  $('form-message').textContent = '';
}

/** @param {import('./sections.js').Section} section @param {number | null} id */
async function formView(section, id) {
  const workspace = $('workspace');
  const draftKey = `${DRAFTS}${section.name}.${id ?? 'new'}`;
  const heading = el('h1', { id: 'view-title', tabindex: '-1' }, id ? `Edit ${section.singular}` : `New ${section.singular}`);
  const form = /** @type {HTMLFormElement} */ (el('form', { id: 'record-form', novalidate: true, 'aria-labelledby': 'view-title' }));
  const fields = section.fields.map((field) => control(field));
  const submit = el('button', { type: 'submit' }, 'Save');
  form.append(
    el('div', { class: 'grid' }, ...fields),
    section.name === 'events' ? eventExtras() : '',
    el('p', { id: 'form-message', class: 'note', role: 'status' }),
    el('p', { id: 'form-error', class: 'error', role: 'alert', tabindex: '-1' }),
    el('div', { class: 'actions' }, submit, ' ', el('a', { href: `#/${section.name}`, class: 'secondary-link' }, 'Back to the list')),
  );
  workspace.replaceChildren(heading, form);
  heading.focus();

  /** @type {any} */
  let loaded = null;
  let readOnly = false;
  // An edit takes no typing until the record is in (it would overwrite what was typed); nothing is
  // saved before the pickers are in and the form's handler is set (a Save would reload the page).
  const release = holdForm(form, id ? undefined : [submit]);
  if (!id && section.name === 'events') fillForm(form, { status: 'draft', ...emptyRecurrence() });
  if (!id && section.defaults) fillForm(form, section.defaults);
  try {
    if (section.name === 'events') await setUpPicks(form);
    if (id) loaded = await call(section.get, { id });
    release();
    if (id) {
      readOnly = applyRights(form, loaded);
      offerVenue(form, loaded);
      fillForm(form, section.toForm(loaded));
    }
  } catch (error) {
    $('form-error').textContent = messageOf(error);
    return;
  }
  const draft = sessionStorage.getItem(draftKey);
  if (draft) {
    fillForm(form, JSON.parse(draft));
    $('form-message').textContent = 'Restored what you typed before (not saved yet).';
  }
  syncEventControls(form);
  form.addEventListener('input', () => {
    sessionStorage.setItem(draftKey, JSON.stringify(formState(form)));
    syncEventControls(form);
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors(form);
    const state = formState(form);
    sessionStorage.setItem(draftKey, JSON.stringify(state));
    submit.setAttribute('disabled', '');
    // Said until the saved record is back in the form, so nobody (nor a test) reads the form half-refreshed.
    $('form-message').textContent = 'Saving…';
    try {
      const variables = section.toInput(state, loaded);
      const saved = section.saved(await call(id ? section.update : section.create, variables));
      sessionStorage.removeItem(draftKey);
      const asked = String(state.status ?? '').toUpperCase();
      if (asked && saved.status && asked !== saved.status) {
        // The API downgrades what the key's role may not do (a contributor's "publish"): say so there.
        /** @type {HTMLElement} */ (form.querySelector('[data-error-for="status"]')).textContent =
          `Saved as ${saved.status.toLowerCase()}: your key's role may not make it ${asked.toLowerCase()}.`;
      }
      if (!id) {
        history.replaceState(null, '', `#/${section.name}/${saved.id}`);
        await formView(section, saved.id);
        if (asked && saved.status && asked !== saved.status) {
          /** @type {HTMLElement} */ (document.querySelector('[data-error-for="status"]')).textContent =
            `Saved as ${saved.status.toLowerCase()}: your key's role may not make it ${asked.toLowerCase()}.`;
        }
      } else {
        loaded = await call(section.get, { id });
        readOnly = applyRights(form, loaded);
        offerVenue(form, loaded);
        fillForm(form, section.toForm(loaded));
      }
      $('form-message').textContent = `Saved (${saved.status ? saved.status.toLowerCase() : 'done'}).`;
    } catch (error) {
      $('form-message').textContent = '';
      showErrors(form, error);
    } finally {
      if (!readOnly) submit.removeAttribute('disabled');
    }
  });
}

/** A search box that narrows a picker's options: the first matches of every record. @param {'venue' | 'organizer'} kind */
function pickerSearch(kind) {
  const Kind = kind[0].toUpperCase() + kind.slice(1);
  const input = el('input', { id: `${kind}-search`, type: 'search', 'aria-describedby': `${kind}-found` });
  const button = el('button', { type: 'button', class: 'secondary', id: `${kind}-find` }, `Find ${kind}s`);
  // Enter in the box searches rather than saving the event.
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    button.click();
  });
  return el(
    'div',
    { class: 'picker-search' },
    el('div', { class: 'field' }, el('label', { for: `${kind}-search` }, `Search ${Kind.toLowerCase()}s`), input),
    el('div', { class: 'actions' }, button),
    el('p', { id: `${kind}-found`, class: 'muted', role: 'status' }),
  );
}

/** The event form's venue picker with inline creation, its organizers, and the recurrence rule. */
function eventExtras() {
  return el(
    'div',
    {},
    el(
      'fieldset',
      { class: 'tools' },
      el('legend', {}, 'Venue'),
      pickerSearch('venue'),
      control({ name: 'venue', label: 'Existing venue', type: 'select', options: [] }),
      el(
        'div',
        { id: 'venue-new', class: 'grid' },
        ...[
          ['name', 'name'],
          ['address', 'address'],
          ['city', 'city'],
          ['country', 'country'],
        ].map(([field, text]) => control({ name: `venueNew_${field}`, label: `New venue: ${text}` })),
      ),
    ),
    organizersFieldset(),
    recurrenceFieldset(),
  );
}

/**
 * The event's organizers: a list in order, each with its Remove button, kept in a hidden field
 * (so drafts keep it); one added from the picker or created inline (the API creates it on save).
 */
function organizersFieldset() {
  const add = el('button', { type: 'button', class: 'secondary', id: 'organizer-add' }, 'Add organizer');
  const addNew = el('button', { type: 'button', class: 'secondary', id: 'organizer-add-new' }, 'Add new organizer');
  return el(
    'fieldset',
    { class: 'tools' },
    el('legend', {}, 'Organizers'),
    el('input', { type: 'hidden', id: 'f-organizers', name: 'organizers', value: '[]' }),
    el('ul', { id: 'organizer-list', class: 'records', 'aria-label': 'Organizers of this event' }),
    el('p', { id: 'f-organizer-error', class: 'error', 'data-error-for': 'organizer' }),
    pickerSearch('organizer'),
    el(
      'div',
      { class: 'picker-search' },
      el(
        'div',
        { class: 'field' },
        el('label', { for: 'f-organizer' }, 'Existing organizer'),
        el('select', { id: 'f-organizer', 'aria-describedby': 'f-organizer-error' }),
      ),
      el('div', { class: 'actions' }, add),
    ),
    el(
      'div',
      { class: 'grid' },
      ...[
        ['name', 'name'],
        ['email', 'email'],
        ['phone', 'phone'],
      ].map(([field, text]) => control({ name: `organizerNew_${field}`, label: `New organizer: ${text}` })),
    ),
    el('div', { class: 'actions' }, addNew),
  );
}

function recurrenceFieldset() {
  return el(
    'fieldset',
    { class: 'tools' },
    el('legend', {}, 'Repeats'),
    el(
      'div',
      { class: 'grid' },
      control({
        name: 'recurrence',
        label: 'Frequency',
        type: 'select',
        options: [
          ['', 'Does not repeat'],
          ['DAILY', 'Daily'],
          ['WEEKLY', 'Weekly'],
          ['MONTHLY', 'Monthly'],
          ['YEARLY', 'Yearly'],
        ],
      }),
      control({ name: 'interval', label: 'Every n-th period', type: 'number', hint: '1: every period' }),
      control({ name: 'until', label: 'Until (day)', type: 'date' }),
      control({ name: 'count', label: 'Number of occurrences', type: 'number', hint: 'Instead of a last day' }),
    ),
    el(
      'fieldset',
      { class: 'weekdays' },
      el('legend', {}, 'On these weekdays'),
      ...WEEKDAYS.map((day) =>
        el(
          'span',
          {},
          el('input', { type: 'checkbox', id: `f-byDay-${day}`, name: 'byDay', value: day }),
          ' ',
          el('label', { for: `f-byDay-${day}` }, day),
        ),
      ),
    ),
    el(
      'div',
      { class: 'grid' },
      control({ name: 'exdates', label: 'Dates left out', type: 'textarea', hint: EXCEPTION_HINT }),
      control({ name: 'rdates', label: 'Dates added', type: 'textarea', hint: EXCEPTION_HINT }),
    ),
  );
}

/** Fills a picker with the records its search finds, keeping the one picked. @param {HTMLFormElement} form @param {'venue' | 'organizer'} kind */
async function findPicks(form, kind) {
  const search = /** @type {HTMLInputElement} */ (form.querySelector(`#${kind}-search`)).value.trim();
  const select = /** @type {HTMLSelectElement} */ (form.querySelector(`#f-${kind}`));
  const note = /** @type {HTMLElement} */ (form.querySelector(`#${kind}-found`));
  const { found } = await call(PICKS[kind], { search: search || undefined });
  const picked = select.selectedOptions[0];
  const options = found.items.map((/** @type {any} */ item) => el('option', { value: String(item.id) }, item.name));
  const first =
    kind === 'venue'
      ? [el('option', { value: '' }, 'None'), el('option', { value: 'new' }, 'A new venue (fields below)')]
      : [el('option', { value: '' }, 'Choose an organizer')];
  const keep = picked && picked.value && !found.items.some((/** @type {any} */ item) => String(item.id) === picked.value) ? [picked] : [];
  select.replaceChildren(...first, ...keep, ...options);
  if (picked) select.value = picked.value;
  note.textContent =
    found.total > found.items.length
      ? `Showing ${found.items.length} of ${found.total}: search to find the others.`
      : `${found.total} found.`;
}

/** Wires the pickers and the organizer list. @param {HTMLFormElement} form */
async function setUpPicks(form) {
  for (const kind of /** @type {const} */ (['venue', 'organizer'])) {
    const note = /** @type {HTMLElement} */ (form.querySelector(`#${kind}-found`));
    const find = () => findPicks(form, kind).catch((error) => (note.textContent = messageOf(error)));
    form.querySelector(`#${kind}-find`)?.addEventListener('click', find);
  }
  const hidden = /** @type {HTMLInputElement} */ (form.querySelector('#f-organizers'));
  const select = /** @type {HTMLSelectElement} */ (form.querySelector('#f-organizer'));
  /** @param {import('./sections.js').OrganizerPick[]} list */
  const change = (list) => {
    hidden.value = JSON.stringify(list);
    renderOrganizers(form);
    form.dispatchEvent(new Event('input')); // the draft keeps it
  };
  form.querySelector('#organizer-add')?.addEventListener('click', () => {
    const option = select.selectedOptions[0];
    const list = organizersOf(hidden.value);
    if (!option?.value || list.some((pick) => 'id' in pick && String(pick.id) === option.value)) return;
    change([...list, { id: Number(option.value), name: option.text }]);
  });
  form.querySelector('#organizer-add-new')?.addEventListener('click', () => {
    const value = (/** @type {string} */ field) =>
      /** @type {HTMLInputElement} */ (form.querySelector(`#f-organizerNew_${field}`)).value.trim();
    const error = /** @type {HTMLElement} */ (form.querySelector('#f-organizer-error'));
    if (!value('name')) {
      error.textContent = 'A new organizer needs a name.';
      /** @type {HTMLInputElement} */ (form.querySelector('#f-organizerNew_name')).focus();
      return;
    }
    error.textContent = '';
    /** @type {Record<string, string>} */
    const fields = { organizer: value('name') };
    for (const field of ['email', 'phone']) if (value(field)) fields[field] = value(field);
    for (const field of ['name', 'email', 'phone'])
      /** @type {HTMLInputElement} */ (form.querySelector(`#f-organizerNew_${field}`)).value = '';
    change([...organizersOf(hidden.value), { new: fields }]);
  });
  form.querySelector('#organizer-list')?.addEventListener('click', (event) => {
    const button = /** @type {HTMLElement} */ (event.target).closest('button[data-index]');
    if (!button) return;
    const list = organizersOf(hidden.value);
    const index = Number(button.getAttribute('data-index'));
    list.splice(index, 1);
    change(list);
    // Focus stays in the list: on the next organizer's button, else on the picker.
    const next = form.querySelectorAll('#organizer-list button')[Math.min(index, list.length - 1)];
    /** @type {HTMLElement} */ (next ?? select).focus();
  });
  await Promise.all([findPicks(form, 'venue'), findPicks(form, 'organizer')]);
}

/**
 * The form as the record's `rights` allow: no Save without edit, no published or scheduled status
 * without publish. True when the record is read-only to the caller.
 * @param {HTMLFormElement} form @param {any} loaded
 */
function applyRights(form, loaded) {
  const rights = (loaded.event ?? loaded.record)?.rights;
  if (!rights) return false;
  const submit = /** @type {HTMLButtonElement} */ (form.querySelector('button[type="submit"]'));
  submit.disabled = !rights.edit;
  if (!rights.edit) $('form-message').textContent = 'Your key may read this but not change it.';
  for (const option of form.querySelectorAll('#f-status option')) {
    const publishing = ['publish', 'future'].includes(/** @type {HTMLOptionElement} */ (option).value);
    /** @type {HTMLOptionElement} */ (option).disabled = publishing && !rights.publish;
  }
  const hint = form.querySelector('[data-error-for="status"]');
  if (hint && !rights.publish && rights.edit)
    hint.textContent = "Your key's role may not publish this: it can be saved as a draft or for review.";
  return !rights.edit;
}

/** The event's venue among the picker's options, though its search did not find it. @param {HTMLFormElement} form @param {any} loaded */
function offerVenue(form, loaded) {
  const venue = loaded?.event?.venue;
  const select = /** @type {HTMLSelectElement | null} */ (form.querySelector('#f-venue'));
  if (!venue || !select || [...select.options].some((option) => option.value === String(venue.id))) return;
  select.append(el('option', { value: String(venue.id) }, venue.name));
}

/** The organizer list from the hidden field. @param {HTMLFormElement} form */
function renderOrganizers(form) {
  const list = organizersOf(/** @type {HTMLInputElement} */ (form.querySelector('#f-organizers')).value);
  const names = list.map((pick) => ('id' in pick ? pick.name : `${pick.new.organizer} (new)`));
  /** @type {HTMLElement} */ (form.querySelector('#organizer-list')).replaceChildren(
    ...(names.length
      ? names.map((name, index) =>
          el(
            'li',
            {},
            el('span', {}, name),
            el('button', { type: 'button', class: 'secondary', 'data-index': index, 'aria-label': `Remove ${name}` }, 'Remove'),
          ),
        )
      : [el('li', { class: 'muted' }, 'No organizer.')]),
  );
}

/** Shows the new-venue fields only when "new" is picked; the organizer list as the form holds it. @param {HTMLFormElement} form */
function syncEventControls(form) {
  // The rule's parts mean nothing for an event that does not repeat.
  const frequency = /** @type {HTMLSelectElement | null} */ (form.querySelector('#f-recurrence'));
  for (const name of ['interval', 'until', 'count', 'exdates', 'rdates', 'byDay']) {
    for (const input of form.querySelectorAll(`[name="${name}"]`)) /** @type {HTMLInputElement} */ (input).disabled = !frequency?.value;
  }
  const select = /** @type {HTMLSelectElement | null} */ (form.querySelector('#f-venue'));
  const block = form.querySelector('#venue-new');
  if (select && block) /** @type {HTMLElement} */ (block).hidden = select.value !== 'new';
  if (form.querySelector('#f-organizers')) renderOrganizers(form);
}

// ---- start ------------------------------------------------------------------------------------

$('signin-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = /** @type {HTMLInputElement} */ ($('api-key'));
  $('signin-error').textContent = '';
  try {
    showSignedIn(await signIn(input.value.trim()));
    input.value = '';
  } catch (error) {
    $('signin-error').textContent = messageOf(error);
  }
});
$('sign-out').addEventListener('click', () => signOut());
window.addEventListener('hashchange', route);

const key = storedKey();
if (key) signIn(key).then(showSignedIn, (error) => signOut(error instanceof AuthError ? error.message : ''));
