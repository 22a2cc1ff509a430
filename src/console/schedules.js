// @ts-check
// A task's schedule on its page (#/task/<id>): the pattern and zone, the next run times, what became
// of the last due times (started, skipped, refused), and the owner's controls: set, pause, resume,
// remove. It renders into #task-schedule whenever the page shows a task, on its own (it follows
// the location's hash), so the rest of the console does not need to know about it.
import { ApiError, gql, messageOf, storedKey } from './api.js';
import { byId, el, time } from './dom.js';

const FIELDS = `id schedule { cron timeZone paused nextRunAt nextRunTimes(count: 5) occurrences(first: 10) { dueAt outcome runId reason } }`;
const QUERY = `query TaskSchedule($id: ID!) { task(id: $id) { ${FIELDS} } }`;
const MUTATIONS = {
  set: `mutation SetTaskSchedule($id: ID!, $schedule: TaskScheduleInput) { task: setTaskSchedule(id: $id, schedule: $schedule) { ${FIELDS} } }`,
  pause: `mutation PauseTaskSchedule($id: ID!) { task: pauseTaskSchedule(id: $id) { ${FIELDS} } }`,
  resume: `mutation ResumeTaskSchedule($id: ID!) { task: resumeTaskSchedule(id: $id) { ${FIELDS} } }`,
};

/**
 * @typedef {{ dueAt: string, outcome: string, runId: string | null, reason: string | null }} Occurrence
 * @typedef {{ cron: string, timeZone: string, paused: boolean, nextRunAt: string | null, nextRunTimes: string[], occurrences: Occurrence[] }} Schedule
 */

/** The task whose schedule is shown, so a late answer for another task is dropped. */
let shownTaskId = /** @type {string | null} */ (null);

/** The task id of the location's hash (#/task/<id> or #/task/<id>/run/<runId>), or null. */
function taskIdOfHash() {
  const match = /^#\/task\/([^/]+)/.exec(location.hash);
  return match ? decodeURIComponent(match[1]) : null;
}

/**
 * Loads and shows the schedule of the task, or runs one of the owner's changes to it first.
 * @param {string} taskId
 * @param {keyof typeof MUTATIONS} [change]
 * @param {Record<string, unknown>} [variables]
 */
export async function showSchedule(taskId, change, variables = {}) {
  const box = byId('task-schedule');
  shownTaskId = taskId;
  try {
    const data = await gql(change ? MUTATIONS[change] : QUERY, { id: taskId, ...variables });
    if (shownTaskId === taskId) render(box, taskId, data.task?.schedule ?? null);
  } catch (error) {
    if (shownTaskId !== taskId) return;
    const message = error instanceof ApiError && error.params ? Object.values(error.params).join('; ') : messageOf(error);
    box.querySelector('.schedule-error')?.replaceChildren(message);
    if (!box.querySelector('.schedule-error')) box.replaceChildren(el('p', { class: 'error', role: 'alert' }, message));
  }
}

/**
 * @param {HTMLElement} box
 * @param {string} taskId
 * @param {Schedule | null} schedule
 */
function render(box, taskId, schedule) {
  const cron = el('input', { id: 'schedule-cron', name: 'cron', type: 'text', placeholder: '0 8 * * 1-5', value: schedule?.cron ?? '' });
  const zone = el('input', {
    id: 'schedule-zone',
    name: 'timeZone',
    type: 'text',
    placeholder: 'Europe/Paris',
    value: schedule?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
  });
  const form = el(
    'form',
    { class: 'schedule-form', novalidate: true },
    el('div', { class: 'field' }, el('label', { for: 'schedule-cron' }, 'Cron pattern (minute hour day month weekday)'), cron),
    el('div', { class: 'field' }, el('label', { for: 'schedule-zone' }, 'Time zone'), zone),
    el('p', { class: 'error schedule-error', role: 'alert' }),
    el('div', { class: 'actions' }, el('button', { type: 'submit' }, schedule ? 'Change schedule' : 'Set schedule')),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void showSchedule(taskId, 'set', { schedule: { cron: cron.value, timeZone: zone.value || null } });
  });
  /** @param {string} label @param {() => void} act */
  const button = (label, act) => {
    const b = el('button', { type: 'button', class: 'secondary' }, label);
    b.addEventListener('click', act);
    return b;
  };
  /** @type {HTMLElement[]} */
  const parts = [el('h3', { id: 'schedule-title' }, 'Schedule')];
  if (schedule) {
    parts.push(
      el(
        'p',
        { id: 'schedule-state' },
        `${schedule.cron} (${schedule.timeZone}) — `,
        schedule.paused ? 'paused' : 'active',
        ' ',
        button(schedule.paused ? 'Resume' : 'Pause', () => void showSchedule(taskId, schedule.paused ? 'resume' : 'pause')),
        ' ',
        button('Remove', () => void showSchedule(taskId, 'set', { schedule: null })),
      ),
      el('p', {}, 'Next runs:'),
      schedule.nextRunTimes.length
        ? el('ul', { id: 'schedule-next' }, ...schedule.nextRunTimes.map((at) => el('li', {}, time(at))))
        : el('p', { class: 'muted' }, 'None while paused.'),
    );
    if (schedule.occurrences.length)
      parts.push(
        el('p', {}, 'Last due times:'),
        el(
          'ul',
          { id: 'schedule-occurrences' },
          ...schedule.occurrences.map((o) =>
            el(
              'li',
              {},
              time(o.dueAt),
              ` ${o.outcome}`,
              o.runId ? el('a', { href: `#/task/${encodeURIComponent(taskId)}/run/${encodeURIComponent(o.runId)}` }, ' (run)') : '',
              o.reason ? ` — ${o.reason}` : '',
            ),
          ),
        ),
      );
  } else {
    parts.push(el('p', { class: 'muted' }, 'No schedule: the task runs when created or re-run.'));
  }
  box.replaceChildren(...parts, form);
}

/** Follows the page: a task's page shows its schedule. */
function follow() {
  const taskId = taskIdOfHash();
  if (!taskId || !storedKey()) {
    shownTaskId = null;
    return;
  }
  if (taskId !== shownTaskId) void showSchedule(taskId);
}

window.addEventListener('hashchange', follow);
// The task view appears once signed in and once a task loads: look then too.
new MutationObserver(follow).observe(byId('run-view'), { attributes: true, attributeFilter: ['hidden'] });
follow();
