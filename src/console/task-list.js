// @ts-check
// The key's tasks in the side list, and which task and run are open.
import { el, time } from './dom.js';
import { loadTask, showTaskName } from './console.js';
import { $, setBadge, view } from './state.js';
/** @typedef {import('./state.js').TaskSummary} TaskSummary */

// ——— the task list ———

export function renderTasks(/** @type {TaskSummary[]} */ tasks) {
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

export function markCurrent() {
  for (const [id, item] of view.items) {
    if (id === view.taskId) item.link.setAttribute('aria-current', 'page');
    else item.link.removeAttribute('aria-current');
  }
  for (const link of $('run-list').querySelectorAll('a')) {
    if (link.dataset.runId === view.runId) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
}
