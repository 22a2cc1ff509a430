// @ts-check
// The owner's browser profiles.
import { AuthError, gql, messageOf } from './api.js';
import { el } from './dom.js';
import { expired } from './console.js';
import { $, DELETE_PROFILE, PROFILES } from './state.js';
/** @typedef {import('./state.js').BrowserProfile} BrowserProfile */

// ——— browser profiles ———

/** The owner's profiles: offered as names in the new-task form, listed with a delete button in the key's settings. */
export async function loadProfiles() {
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
