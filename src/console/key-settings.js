// @ts-check
// The key's settings: its default webhook.
import { AuthError, gql, messageOf } from './api.js';
import { expired } from './console.js';
import { $, $input, KEY, SET_WEBHOOK, buttonOf, paramOf, view } from './state.js';

// ——— the key's settings ———

export async function loadKeySettings() {
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

export function keyWebhookError(/** @type {string} */ text) {
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
