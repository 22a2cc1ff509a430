// HTML a user may not post unfiltered is saved as WordPress saves it (kses): authors and
// contributors get a post's title through wp_filter_kses and its description and excerpt through
// wp_filter_post_kses (script, event handlers and iframes go, their text stays); editors and
// administrators (unfiltered_html) are saved as given; a term's description goes through
// wp_filter_kses whoever writes it.
import { describe, expect, it } from 'vitest';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

const NS = '/wp-json/calendar/events/v1';
const TITLE = '<b>Bold</b> <script>x</script>T';
const DESCRIPTION =
  '<p onclick="x()">hi <a href="javascript:alert(1)">j</a> <a href="https://example.com/">ok</a></p><script>alert(1)</script><iframe src="x"></iframe>';

describe.each(DATABASE_KINDS)('HTML filtering of writes on %s', (kind) => {
  const api = useTestServer(kind);
  const send = (method: string, path: string, body: unknown, role: keyof typeof api.keys) =>
    api.request(method, NS + path, { body, key: api.keys[role] });

  it("filters an author's or contributor's event HTML and keeps an editor's", async () => {
    const dates = { start_date: daysFromNow(40), end_date: daysFromNow(40, '12:00:00') };
    const stored = async (role: keyof typeof api.keys) => {
      const created = await send('POST', '/events', { title: TITLE, description: DESCRIPTION, excerpt: DESCRIPTION, ...dates }, role);
      expect(created.status, created.text).toBe(201);
      const read = await send('GET', `/events/${created.json.id}`, undefined, 'administrator');
      return { title: read.json.title, description: read.json.description, excerpt: read.json.excerpt };
    };
    for (const role of ['author', 'contributor'] as const) {
      const saved = await stored(role);
      expect(saved.title, role).toBe('<b>Bold</b> xT');
      for (const html of [saved.description, saved.excerpt]) {
        expect(html, role).not.toMatch(/<script|onclick|<iframe|javascript:/);
        expect(html, role).toContain('<a href="https://example.com/">ok</a>');
        expect(html, role).toContain('alert(1)');
      }
    }
    const editor = await stored('editor');
    expect(editor.title).toBe(TITLE);
    expect(editor.description).toContain('<script>alert(1)</script>');

    // An update by the author is filtered the same way.
    const own = await send('POST', '/events', { title: 'Mine', ...dates }, 'author');
    const updated = await send(
      'POST',
      `/events/${own.json.id}`,
      { description: '<img src="https://example.com/i.png" onerror="alert(1)">' },
      'author',
    );
    expect(updated.status, updated.text).toBe(200);
    expect(updated.json.description).not.toContain('onerror');
  });

  it("stores a venue's fields through sanitize_text_field and an event's cost and website through tec_sanitize_string", async () => {
    const venue = await send(
      'POST',
      '/venues',
      { venue: 'Sanitized hall', address: '<b>1 Main</b>   St\n x %41', city: ' Paris ', phone: '<script>a</script>5', zip: '5 < 6' },
      'administrator',
    );
    expect(venue.status, venue.text).toBe(201);
    expect([venue.json.address, venue.json.city, venue.json.phone, venue.json.zip]).toEqual(['1 Main St x', 'Paris', '5', '5 &lt; 6']);
    const updated = await send(
      'POST',
      `/venues/${venue.json.id}`,
      { city: '<i>Lyon</i>  ', website: 'mailto:hall@example.com' },
      'administrator',
    );
    expect([updated.status, updated.json.city, updated.json.website]).toEqual([200, 'Lyon', 'mailto:hall@example.com']); // a URL to PHP

    const dates = { start_date: daysFromNow(41), end_date: daysFromNow(41, '12:00:00') };
    const event = await send(
      'POST',
      '/events',
      { title: 'Costed', cost: 'Free <b>entry</b> &amp; more', website: 'https://example.com/?a=1&amp;b=2', ...dates },
      'administrator',
    );
    expect(event.status, event.text).toBe(201);
    expect([event.json.cost, event.json.website]).toEqual(['Free entry &amp; more', 'https://example.com/?a=1&b=2']); // the record escapes the cost
    const listed = await send('POST', '/events', { title: 'Costs', cost: ['<b>5</b>', '10'], ...dates }, 'administrator');
    expect(listed.json.cost_details.values).toEqual(['5', '10']);
  });

  it("filters a contributor's venue and organizer, and every term description", async () => {
    const venue = await send('POST', '/venues', { venue: TITLE, description: DESCRIPTION }, 'contributor');
    expect(venue.status, venue.text).toBe(201);
    expect(venue.json.venue).toBe('<b>Bold</b> xT');
    expect(venue.json.description).not.toMatch(/<script|onclick|<iframe/);
    const organizer = await send('POST', '/organizers', { organizer: 'O', description: DESCRIPTION }, 'author');
    expect(organizer.json.description).not.toMatch(/<script|onclick|<iframe/);
    const category = await send(
      'POST',
      '/categories',
      { name: 'Filtered', description: '<p onclick=x>d</p><script>s</script><b>b</b>' },
      'administrator',
    );
    expect(category.status, category.text).toBe(201);
    expect(category.json.description).toBe('ds<b>b</b>');
  });
});
