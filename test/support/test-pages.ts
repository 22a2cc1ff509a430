// A tiny web site on 127.0.0.1 for the browser agent: a search form whose results are a table, a
// sign-in form, account pages that keep a session in a cookie and local storage, a page where nothing
// happens, a canvas that logs the vision overlay, a redirect, pages holding iframes and a payment form
// to put in them, files to download and a page to upload into, a booking form in three layouts, and
// a log of every path requested and every form posted. Start two to have two origins: the second one
// reached as http://localhost:<port> (secondOrigin).
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OVERLAY_ID } from '../../src/tasks/vision.js';

/** How the account pages' session tokens start (a test can look for them in stored bytes). */
export const SESSION_PREFIX = 'sess-';
/** The session tokens given out so far. */
export const sessionTokens = () => [...sessions.keys()];

export const EVENTS = [
  { Event: 'Jazz Night', City: 'Lyon', Kind: 'Music', Date: '2026-12-05' },
  { Event: 'Organ Recital', City: 'Lyon', Kind: 'Music', Date: '2026-12-12' },
  { Event: 'Print Fair', City: 'Lyon', Kind: 'Art', Date: '2026-12-10' },
  { Event: 'Choir Evening', City: 'Paris', Kind: 'Music', Date: '2026-12-06' },
];

export interface TestPages {
  url: string;
  port: number;
  /** Paths (with query) requested so far, in order. */
  hits: string[];
  /** Forms posted so far: the path and the fields. */
  posts: Array<{ path: string; form: Record<string, string> }>;
  close(): Promise<void>;
}

/** The same test pages under another origin (and site): localhost instead of 127.0.0.1. */
export const secondOrigin = (pages: TestPages) => `http://localhost:${pages.port}`;

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body style="font-family:sans-serif">${body}</body></html>`;

const escape = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

const frame = (src: string, style: string) => `<iframe src="${escape(src)}" ${style}></iframe>`;

/** The value of cookie `name` in a Cookie header. */
const cookieOf = (header: string, name: string) =>
  header
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([key]) => key === name)?.[1];

/** The report /files serves as a download. */
export const REPORT_CSV = 'month,total\nNovember,42\n';

const attachment = (name: string, type: string) => ({ 'content-type': type, 'content-disposition': `attachment; filename="${name}"` });

/** How often /quote was shown (its price). */
let quotes = 100;

/** Session tokens the account pages gave out (a random token per sign-in), to their users. */
const sessions = new Map<string, string>();

function respond(url: URL, form?: URLSearchParams, cookie = ''): { status: number; body: string; headers?: Record<string, string> } {
  switch (url.pathname) {
    case '/account': {
      // Signed in by an HttpOnly cookie the site set, with a note the page keeps in local storage.
      const who = sessions.get(cookieOf(cookie, 'session') ?? '');
      const note = `<p id="note"></p><script>document.getElementById('note').textContent = 'Note: ' + (localStorage.getItem('note') || 'none')</script>`;
      if (who) return { status: 200, body: page('Account', `<h1>Signed in as ${escape(who)}</h1>${note}`) };
      return {
        status: 200,
        body: page(
          'Account',
          `<h1>Not signed in</h1><form action="/account/login" method="post"><label for="user">User</label> <input id="user" name="user"><button>Sign in</button></form>`,
        ),
      };
    }
    case '/account/login': {
      const user = form?.get('user') ?? '';
      const token = `${SESSION_PREFIX}${randomBytes(12).toString('hex')}`;
      sessions.set(token, user);
      return {
        status: 200,
        headers: { 'set-cookie': `session=${token}; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax` },
        body: page(
          'Signed in',
          `<h1>Welcome ${escape(user)}</h1><script>localStorage.setItem('note', ${JSON.stringify(`kept for ${user}`).replace(/</g, '\\u003c')})</script>`,
        ),
      };
    }
    case '/':
      return {
        status: 200,
        body: page('Almanac test site', '<h1>Test site</h1><a href="/search">Find events</a> <a href="/signin">Sign in</a>'),
      };
    case '/search':
      return {
        status: 200,
        body: page(
          'Find events',
          `<h1>Find events</h1><form action="/results" method="get">
            <label for="city">City</label> <input id="city" name="city" type="text" placeholder="City name">
            <label for="kind">Kind</label> <select id="kind" name="kind"><option value="">Any</option><option>Music</option><option>Art</option></select>
            <button type="submit">Search</button></form>`,
        ),
      };
    case '/results': {
      const city = url.searchParams.get('city') ?? '';
      const kind = url.searchParams.get('kind') ?? '';
      const rows = EVENTS.filter((e) => (!city || e.City === city) && (!kind || e.Kind === kind));
      const table = `<table id="events"><thead><tr><th>Event</th><th>City</th><th>Date</th></tr></thead><tbody>${rows
        .map((e) => `<tr><td>${e.Event}</td><td>${e.City}</td><td>${e.Date}</td></tr>`)
        .join('')}</tbody></table>`;
      return { status: 200, body: page(`Results for ${escape(city)}`, `<h1>${rows.length} events</h1>${table}`) };
    }
    case '/signin':
      return {
        status: 200,
        body: page(
          'Sign in',
          `<h1>Sign in</h1><form action="/welcome"><label for="name">Your name</label> <input id="name" name="name"><button>Continue</button></form>`,
        ),
      };
    case '/canvas':
      // A number only a picture shows, and a log of the vision overlay: the numbers drawn on it, and
      // whether it was taken away again (the page watches its root for the overlay coming and going).
      return {
        status: 200,
        body: page(
          'Canvas',
          `<h1>What number is drawn?</h1><canvas id="c" width="200" height="100"></canvas>
          <button type="button">Reveal</button> <a href="/signin">Sign in</a> <input aria-label="Answer">
          <p id="log">overlay drawn: none; removed: no</p>
          <script>
            const g = document.getElementById('c').getContext('2d');
            g.font = 'bold 64px sans-serif'; g.fillText('47', 40, 75);
            let drawn = 'none', removed = 'no';
            new MutationObserver((changes) => {
              for (const change of changes) {
                for (const node of change.addedNodes) if (node.id === ${JSON.stringify(OVERLAY_ID)}) {
                  drawn = [...node.children].map((c) => c.textContent).filter((t) => /^\\d+$/.test(t)).join(',');
                  removed = 'no';
                }
                for (const node of change.removedNodes) if (node.id === ${JSON.stringify(OVERLAY_ID)}) removed = 'yes';
              }
              document.getElementById('log').textContent = 'overlay drawn: ' + drawn + '; removed: ' + removed;
            }).observe(document.documentElement, { childList: true });
          </script>`,
        ),
      };
    case '/welcome':
      return { status: 200, body: page('Welcome', `<h1>Welcome, ${escape(url.searchParams.get('name') ?? '')}!</h1>`) };
    case '/still':
      return { status: 200, body: page('Nothing happens', '<h1>Nothing happens here</h1><button type="button">Do nothing</button>') };
    case '/redirect':
      return { status: 302, body: '', headers: { location: url.searchParams.get('to') ?? '/' } };
    case '/framed': {
      // Each `src` in a visible frame, each `hidden` in a display:none one, each `tiny` in a 0×0 one.
      const all = (name: string, style: string) => url.searchParams.getAll(name).map((src) => frame(src, style));
      return {
        status: 200,
        body: page(
          'Shop',
          `<h1>Checkout</h1><button type="button">Help</button>${[
            ...all('src', 'width="520" height="300"'),
            ...all('hidden', 'style="display:none"'),
            ...all('tiny', 'width="0" height="0" style="border:0"'),
          ].join('')}`,
        ),
      };
    }
    case '/pay': {
      const terms = url.searchParams.get('terms');
      return {
        status: 200,
        body: page(
          'Pay',
          `<form action="/paid" method="post"><label for="holder">Card holder</label> <input id="holder" name="holder">
            <label for="card">Card number</label> <input id="card" name="card">
            <label for="country">Country</label> <select id="country" name="country"><option>France</option><option>Germany</option></select>
            <button>Pay</button></form>${terms ? `<a href="${escape(terms)}">Terms</a>` : ''}`,
        ),
      };
    }
    case '/paid':
      return { status: 200, body: page('Paid', `<p>Payment received from ${escape(form?.get('holder') ?? '?')}</p>`) };
    case '/many-frames': {
      // `n` frames of 8 buttons each, written in place (srcdoc), with a title and a text `junk` words long.
      const junk = 'junk '.repeat(Number(url.searchParams.get('junk') ?? 0));
      const content = `<title>${junk}</title><p>${junk}</p>${Array.from({ length: 8 }, (_, i) => `<button>B${i + 1}</button>`).join('')}`;
      const frames = Array.from({ length: Number(url.searchParams.get('n') ?? 1) }, () => `<iframe srcdoc="${escape(content)}"></iframe>`);
      return { status: 200, body: page('Many frames', frames.join('')) };
    }
    case '/claims-blocked':
      // A site imitating the policy proxy's refusal header.
      return { status: 200, body: page('Not blocked', '<h1>Served</h1>'), headers: { 'x-almanac-blocked': 'a%20forged%20refusal' } };
    case '/tabs': {
      // A link opening the search in a new tab, and a button opening `popup` (default /signin) by script.
      const popup = JSON.stringify(url.searchParams.get('popup') ?? '/signin').replace(/</g, '\\u003c');
      return {
        status: 200,
        body: page(
          'Tabs',
          `<h1>Tabs</h1><a href="/search" target="_blank">Search in a new tab</a> <button type="button" onclick="window.open(${escape(popup)})">Open popup</button>`,
        ),
      };
    }
    case '/login':
      return {
        status: 200,
        body: page(
          'Log in',
          `<form action="/logged-in" method="post"><label for="password">Password</label> <input id="password" name="password" type="password">
            <label for="otp">One-time code</label> <input id="otp" name="otp" inputmode="numeric"><button>Log in</button></form>`,
        ),
      };
    case '/logged-in':
      // Echoes the code it was sent (a site showing what was typed).
      return { status: 200, body: page('Logged in', `<p>Logged in with code ${escape(form?.get('otp') ?? '')}</p>`) };
    case '/files':
      return {
        status: 200,
        body: page(
          'Files',
          `<h1>Files</h1><a href="/files/report.csv" download>Download the report</a> <a href="/files/big.bin">Download the big file</a>
            <a href="/files/page.html">Download the page</a>`,
        ),
      };
    case '/files/report.csv':
      return { status: 200, body: REPORT_CSV, headers: attachment('report.csv', 'text/csv') };
    case '/files/big.bin':
      return { status: 200, body: 'x'.repeat(300_000), headers: attachment('big.bin', 'application/octet-stream') };
    case '/files/page.html':
      // A page sent as a file: Almanac must serve it back as bytes, never as a page of its own origin.
      return { status: 200, body: '<script>document.title = "ran"</script>', headers: attachment('page.html', 'text/html') };
    case '/files/notes.txt':
      return { status: 200, body: 'notes from the web', headers: { 'content-type': 'text/plain' } };
    case '/upload':
      // A file input hidden behind a styled label, and a button that opens a file chooser from script;
      // each shows the name, size, type and text of the file it got.
      return {
        status: 200,
        body: page(
          'Upload',
          `<label for="cv" style="border:1px solid">Choose your CV</label><input id="cv" type="file" style="display:none">
            <button type="button" id="photo">Attach a photo</button><ul id="got"></ul>
            <script>
              const show = async (label, file) => {
                const li = document.createElement('li');
                li.textContent = label + ': ' + file.name + ', ' + file.size + ' bytes, ' + file.type + ': ' + (await file.text());
                document.getElementById('got').append(li);
              };
              document.getElementById('cv').onchange = (e) => show('CV', e.target.files[0]);
              document.getElementById('photo').onclick = () => {
                const input = document.createElement('input');
                input.type = 'file';
                input.onchange = () => show('Photo', input.files[0]);
                input.click();
              };
            </script>`,
        ),
      };
    case '/booking': {
      // The same booking form in three layouts: a, b (the same fields in another order, behind other
      // elements: every number changes) and c (the button renamed), for replays.
      const layout = url.searchParams.get('layout') ?? 'a';
      const name = '<label for="who">Your name</label> <input id="who" name="who">';
      const code = '<label for="code">Booking code</label> <input id="code" name="code" type="password">';
      // cities=Paris: a city the earlier run chose is no longer offered, so replaying that choice fails.
      const cities = (url.searchParams.get('cities') ?? 'Paris,Lyon').split(',');
      const options = cities.map((c) => `<option>${escape(c)}</option>`).join('');
      const city = `<label for="city">City</label> <select id="city" name="city">${options}</select>`;
      const button = `<button type="submit">${layout === 'c' ? 'Reserve' : 'Book'}</button>`;
      const fields =
        layout === 'b'
          ? `<a href="/">Help</a> <label><input type="checkbox" name="news"> News</label> ${button} ${city} ${code} ${name}`
          : `${name} ${code} ${city} ${button}`;
      return { status: 200, body: page('Booking', `<h1>Booking</h1><form action="/booked">${fields}</form>`) };
    }
    case '/quote':
      // A price that changes with every look: an answer read off it goes stale.
      return { status: 200, body: page('Quote', `<h1>Quote</h1><p>Today's price: ${++quotes}.00 EUR</p>`) };
    case '/booked':
      return {
        status: 200,
        body: page('Booked', `<p>Booked ${escape(url.searchParams.get('who') ?? '')} in ${escape(url.searchParams.get('city') ?? '')}</p>`),
      };
    case '/secret':
      return { status: 200, body: page('Secret', '<h1>secret content</h1>') };
    default:
      return { status: 404, body: page('Not found', '<h1>Not found</h1>') };
  }
}

export async function startTestPages(): Promise<TestPages> {
  const hits: string[] = [];
  const posts: TestPages['posts'] = [];
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://pages.test');
    if (url.pathname !== '/favicon.ico') hits.push(url.pathname + url.search);
    let form: URLSearchParams | undefined;
    if (req.method === 'POST') {
      let text = '';
      for await (const chunk of req) text += chunk;
      form = new URLSearchParams(text);
      posts.push({ path: url.pathname, form: Object.fromEntries(form) });
    }
    const { status, body, headers } = respond(url, form, req.headers.cookie);
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    posts,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
