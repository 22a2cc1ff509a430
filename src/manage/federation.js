// @ts-check
// The editor's Federation page (#/federation): the calendar's fediverse handle, its followers (each
// removable) and the latest deliveries with their failures, from GraphQL `federation`. The API
// answers only administrators; anyone else sees its refusal.

import { messageOf } from '../console/api.js';
import { el } from '../console/dom.js';

const OVERVIEW = `query ManageFederation {
  federation {
    enabled handle
    followers(first: 100) { count items { actorId handle createdAt } }
    deliveries(first: 30) { id activityType eventId inbox status attempts lastStatus lastError createdAt }
  }
}`;
const REMOVE = `mutation ManageRemoveFollower($actorId: String!) { removeFederationFollower(actorId: $actorId) { actorId } }`;

/**
 * Renders the page into `workspace`; `call` runs a GraphQL operation (a refused key signs out).
 * @param {HTMLElement} workspace
 * @param {(query: string, variables?: Record<string, unknown>) => Promise<any>} call
 * @param {string} [note] what the last action did
 */
export function federationView(workspace, call, note = '') {
  const heading = el('h1', { id: 'view-title', tabindex: '-1' }, 'Federation');
  const status = el('p', { id: 'federation-status', class: 'muted', role: 'status' }, note || 'Loading…');
  const body = el('div', {});
  workspace.replaceChildren(heading, status, body);
  heading.focus();
  call(OVERVIEW)
    .then(({ federation }) => {
      status.textContent = note;
      const reload = (/** @type {string} */ said) => federationView(workspace, call, said);
      body.replaceChildren(
        federation.enabled
          ? el('p', {}, 'Follow the calendar on Mastodon and the rest of the fediverse as ', el('strong', {}, federation.handle), '.')
          : el('p', {}, 'Federation is off: set SITE_URL to the public address (and leave FEDERATION on) to turn it on.'),
        el('h2', { id: 'followers-title' }, `Followers (${federation.followers.count})`),
        federation.followers.items.length
          ? el(
              'ul',
              { class: 'records', 'aria-labelledby': 'followers-title' },
              ...federation.followers.items.map((/** @type {any} */ f) => followerRow(f, call, reload)),
            )
          : el('p', { class: 'muted' }, 'Nobody follows the calendar yet.'),
        el('h2', { id: 'deliveries-title' }, 'Recent deliveries'),
        federation.deliveries.length ? deliveriesTable(federation.deliveries) : el('p', { class: 'muted' }, 'Nothing sent yet.'),
      );
    })
    .catch((error) => (status.textContent = messageOf(error)));
}

/** @param {any} follower @param {(query: string, variables?: Record<string, unknown>) => Promise<any>} call @param {(said: string) => void} reload */
function followerRow(follower, call, reload) {
  const errorId = `follower-${follower.actorId}-error`;
  const error = el('span', { id: errorId, class: 'error', role: 'alert' });
  const button = el(
    'button',
    { type: 'button', class: 'danger', 'aria-label': `Remove ${follower.handle}`, 'aria-describedby': errorId },
    'Remove',
  );
  button.addEventListener('click', async () => {
    error.textContent = '';
    try {
      await call(REMOVE, { actorId: follower.actorId });
      reload(`${follower.handle}: removed. `);
    } catch (refusal) {
      error.textContent = messageOf(refusal);
    }
  });
  return el(
    'li',
    {},
    el('a', { href: follower.actorId, rel: 'noopener noreferrer' }, follower.handle),
    el('span', { class: 'muted' }, `since ${follower.createdAt.slice(0, 10)}`),
    button,
    error,
  );
}

/** @param {any[]} deliveries */
function deliveriesTable(deliveries) {
  const head = el(
    'tr',
    {},
    ...['Activity', 'Event', 'Inbox', 'Status', 'Attempts', 'Last error'].map((name) => el('th', { scope: 'col' }, name)),
  );
  const rows = deliveries.map((d) =>
    el(
      'tr',
      {},
      el('td', {}, d.activityType),
      el('td', {}, d.eventId ? el('a', { href: `#/events/${d.eventId}` }, String(d.eventId)) : ''),
      el('td', {}, d.inbox),
      el('td', {}, el('span', { class: 'badge' }, d.status)),
      el('td', {}, String(d.attempts)),
      el('td', {}, d.lastError || (d.lastStatus ? `HTTP ${d.lastStatus}` : '')),
    ),
  );
  return el(
    'table',
    { class: 'deliveries' },
    el('caption', { class: 'muted' }, 'The latest 30, newest first.'),
    el('thead', {}, head),
    el('tbody', {}, ...rows),
  );
}
