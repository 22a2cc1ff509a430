// @ts-check
// The run's browser, live: a WebSocket to /api/v1/task/<id>/run/live sends JPEG frames of the page
// the agent works on, with its URL and the agent's step; shown while the run executes.
import { storedKey } from './api.js';
import { $ } from './state.js';

/** @type {WebSocket | null} */
let socket = null;

export function stopLiveView() {
  socket?.close();
  socket = null;
  $('live-view').hidden = true;
}

export function startLiveView(/** @type {string} */ taskId, /** @type {string} */ runId) {
  stopLiveView();
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(
    `${scheme}//${location.host}/api/v1/task/${encodeURIComponent(taskId)}/run/live?runId=${encodeURIComponent(runId)}`,
  );
  socket = ws;
  // A browser cannot set headers on a WebSocket: the key goes as the first message.
  ws.addEventListener('open', () => ws.send(JSON.stringify({ key: storedKey() })));
  ws.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data));
    if (message.type !== 'frame') {
      $('live-view').hidden = true;
      return;
    }
    $('live-view').hidden = false;
    /** @type {HTMLImageElement} */ ($('live-frame')).src = `data:image/jpeg;base64,${message.data}`;
    $('live-url').textContent = message.url;
    $('live-step').textContent = message.step;
  });
}
