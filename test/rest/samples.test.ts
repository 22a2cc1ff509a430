// Replays the original's recorded exchanges (shared/spec/samples, in INDEX.tsv order) against a
// fresh Almanac (site http://127.0.0.1:8080, the recorded tribe/events/v1 namespace) and compares
// the status, the Allow and X-TEC-* headers and the body, key order included. A recording made
// with WordPress's no-cache headers was authenticated: it is replayed with the administrator's key,
// the others anonymously. Normalised: ids (the original's are mapped to ours as they first appear),
// timestamps of "now", the query encoding of URLs (spec §6.3 asks the clone to encode them), and
// JSON-LD's randomly entity-encoded e-mails. Where Almanac differs on purpose (the spec's decisions
// table) the expectation is adjusted — KEPT_ON_UPDATE, ACCEPTED_HERE — and every other difference
// fails, listed path by path.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useClockAt } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';
import { SAMPLES_DIR as DIR, haveSamples } from '../support/shared.js';
const ORIGIN = 'http://127.0.0.1:8080';

interface Sample {
  scenario: string;
  method: string;
  path: string;
  status: number;
  headers: Map<string, string>;
  body: unknown;
  request?: unknown;
  /** WordPress sends its no-cache headers to logged-in users only: the recording was authenticated. */
  authenticated: boolean;
}

function loadSamples(): Sample[] {
  if (!haveSamples) return [];
  const rows = readFileSync(DIR + 'INDEX.tsv', 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  return rows.map((row) => {
    const [scenario, method, url, status] = row.split('\t');
    const raw = readFileSync(`${DIR}${scenario}.http`, 'utf8');
    const split = raw.search(/\r?\n\r?\n/);
    const headers = new Map<string, string>();
    for (const line of raw.slice(0, split).split(/\r?\n/).slice(1)) {
      const colon = line.indexOf(':');
      headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
    }
    const requestFile = `${DIR}${scenario}.request.json`;
    return {
      scenario,
      method,
      path: url.slice(ORIGIN.length),
      status: Number(status),
      headers,
      body: JSON.parse(raw.slice(split).trim()),
      request: existsSync(requestFile) ? JSON.parse(readFileSync(requestFile, 'utf8')) : undefined,
      authenticated: headers.has('cache-control'),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Ids: posts (events, venues, organizers) and terms are separate id spaces.

type Space = 'post' | 'term';

class IdMap {
  private readonly maps = { post: new Map<number, number>(), term: new Map<number, number>() };
  private readonly taken = { post: new Set<number>(), term: new Set<number>() };

  learn(space: Space, recorded: unknown, actual: unknown): void {
    if (typeof recorded !== 'number' || typeof actual !== 'number' || recorded === 0) return;
    if (this.maps[space].has(recorded) || this.taken[space].has(actual)) return;
    this.maps[space].set(recorded, actual);
    this.taken[space].add(actual);
  }

  ours(space: Space, recorded: number): number {
    return this.maps[space].get(recorded) ?? recorded;
  }

  /** Learns from a response: ids at the same places of the recorded and the actual JSON. */
  walk(recorded: unknown, actual: unknown): void {
    if (Array.isArray(recorded) && Array.isArray(actual)) {
      recorded.forEach((item, i) => this.walk(item, actual[i]));
    } else if (isObject(recorded) && isObject(actual)) {
      const space: Space = 'taxonomy' in recorded ? 'term' : 'post';
      this.learn(space, recorded.id, actual.id);
      for (const [key, value] of Object.entries(recorded)) if (key in actual) this.walk(value, actual[key]);
    }
  }

  /** The recorded JSON with the original's ids replaced by ours (fields and URLs). */
  translate(value: unknown, space: Space = 'post', key = ''): unknown {
    if (Array.isArray(value))
      return value.map((item) => this.translate(item, key === 'categories' || key === 'tags' ? 'term' : space, key));
    if (isObject(value)) {
      const own: Space = 'taxonomy' in value ? 'term' : space;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.translateField(k, v, own)]));
    }
    if (typeof value === 'string') return this.translateString(value);
    if (typeof value === 'number' && (key === 'categories' || key === 'tags')) return this.ours('term', value);
    return value;
  }

  private translateField(key: string, value: unknown, space: Space): unknown {
    if (typeof value === 'number' && (key === 'id' || key === 'term_taxonomy_id' || (key === 'parent' && space === 'term'))) {
      return this.ours(key === 'id' ? space : 'term', value);
    }
    if (key === 'venue' || key === 'organizer') return this.translate(value, 'post', key);
    return this.translate(value, space, key);
  }

  translateString(text: string): string {
    return text
      .replace(/\/(events|venues|organizers)\/(\d+)/g, (_m, kind, id) => `/${kind}/${this.ours('post', Number(id))}`)
      .replace(/\/(categories|tags|tribe_events_cat)\/(\d+)/g, (_m, kind, id) => `/${kind}/${this.ours('term', Number(id))}`)
      .replace(/([?&](?:id|p)=)(\d+)/g, (_m, prefix, id) => `${prefix}${this.ours('post', Number(id))}`)
      .replace(/([?&](?:categories|tags|tribe_events_cat)=)(\d+)/g, (_m, prefix, id) => `${prefix}${this.ours('term', Number(id))}`);
  }
}

const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------
// Normalisation and comparison

const TIMESTAMP_KEYS = new Set(['date', 'date_utc', 'modified', 'modified_utc']);
const WALL = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

/** URLs with a query: decoded, so "a b" and "a+b" / "a%20b" compare equal. */
function canonicalUrl(text: string): string {
  const q = text.indexOf('?');
  if (!/^https?:\/\//.test(text) || q < 0) return text;
  const params = [...new URLSearchParams(text.slice(q + 1).replace(/ /g, '+'))].map(([k, v]) => `${k}=${v}`);
  return `${text.slice(0, q)}?${params.join('&')}`;
}

const decodeEntities = (text: string) => text.replace(/&#(\d+);/g, (_m, code) => String.fromCharCode(Number(code)));

function normalise(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => normalise(item, key));
  // Decision 17 (README): /doc declares the event password in the query, where OpenAPI allows it.
  if (isObject(value) && value.name === 'password' && value.in === 'path') return normalise({ ...value, in: 'query' }, key);
  if (isObject(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k === 'currency_position ' ? 'currency_position' : k, normalise(v, k)]),
    );
  }
  if (typeof value !== 'string') return value;
  if (TIMESTAMP_KEYS.has(key) && WALL.test(value)) return '<timestamp>';
  if (key === 'default' && WALL.test(value)) return value.slice(0, 10); // per-request defaults of "now"
  if (key === 'email') return decodeEntities(value); // antispambot() differs per render
  return canonicalUrl(value);
}

/** Every difference, as "path: recorded → actual" (key order counts: the original's is part of the contract). */
function differences(expected: unknown, actual: unknown, path = '$'): string[] {
  if (isObject(expected) && isObject(actual)) {
    const out: string[] = [];
    const keys = Object.keys(expected);
    const actualKeys = Object.keys(actual);
    for (const key of keys) {
      if (!(key in actual)) out.push(`${path}.${key}: missing (recorded ${JSON.stringify(expected[key])?.slice(0, 120)})`);
      else out.push(...differences(expected[key], actual[key], `${path}.${key}`));
    }
    for (const key of actualKeys)
      if (!(key in expected)) out.push(`${path}.${key}: unexpected ${JSON.stringify(actual[key])?.slice(0, 120)}`);
    const common = keys.filter((k) => k in actual);
    if (!out.length && common.join() !== actualKeys.filter((k) => k in expected).join())
      out.push(`${path}: key order ${actualKeys.join(',')}`);
    return out;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    const out = expected.flatMap((item, i) =>
      i < actual.length ? differences(item, actual[i], `${path}[${i}]`) : [`${path}[${i}]: missing`],
    );
    if (actual.length > expected.length) out.push(`${path}: ${actual.length - expected.length} more item(s)`);
    return out;
  }
  return JSON.stringify(expected) === JSON.stringify(actual)
    ? []
    : [`${path}: ${JSON.stringify(expected)?.slice(0, 200)} → ${JSON.stringify(actual)?.slice(0, 200)}`];
}

// ---------------------------------------------------------------------------------------------
// The spec's decisions table, applied to the recorded expectation

/**
 * Decision 1–3 ("omitted means unchanged"): the original's update of event 7 (sample 26) reset
 * the fields it was not sent — organizers unlinked, website emptied, time zone back to the site's.
 * Almanac keeps them, so from sample 26 on event 7 keeps its values from before the update.
 */
const KEPT_ON_UPDATE = ['timezone', 'timezone_abbr', 'website', 'organizer'];

/**
 * Decision 9: venues take JSON booleans for show_map/show_map_link, so sample 04a's request, a 400
 * in the original, creates a venue here. Expected: 201; the venue is then trashed, so that the rest
 * of the replay starts from the original's state (trashed venues are not listed).
 */
const ACCEPTED_HERE: Record<string, { status: number; cleanup: (json: any) => string }> = {
  '04a-venue-create-json-bool-showmap-400': { status: 201, cleanup: (json) => `/wp-json/tribe/events/v1/venues/${json.id}` },
};

function applyDecisions(sample: Sample, expected: unknown, memory: Map<string, Record<string, unknown>>): unknown {
  const patch = (record: unknown) => {
    if (!isObject(record) || record.rest_url === undefined || !String(record.rest_url).match(/\/events\/\d+$/)) return record;
    const key = String(record.rest_url);
    if (Number(sample.scenario.slice(0, 2)) < 26) {
      memory.set(key, Object.fromEntries(KEPT_ON_UPDATE.map((k) => [k, record[k]])));
      return record;
    }
    const before = memory.get(key);
    return before && record.title === 'Jazz Night (updated)' ? { ...record, ...before } : record;
  };
  if (isObject(expected) && Array.isArray(expected.events)) return { ...expected, events: expected.events.map(patch) };
  return patch(expected);
}

// ---------------------------------------------------------------------------------------------

const SAMPLES = loadSamples();
const HEADERS = ['allow', 'x-tec-total', 'x-tec-totalpages'];

(SAMPLES.length ? describe : describe.skip).each(DATABASE_KINDS)("the original's recorded samples, replayed on %s", (kind) => {
  useClockAt(); // the recorded lists hold "upcoming" events and the default window of that day
  const api = useTestServer(kind, { SITE_URL: ORIGIN });
  const ids = new IdMap();
  const before = new Map<string, Record<string, unknown>>();

  it.each(SAMPLES.map((s) => [s.scenario, s] as const))('%s', async (_name, sample) => {
    const accepted = ACCEPTED_HERE[sample.scenario];
    if (accepted) {
      const response = await api.request(sample.method, sample.path, { body: sample.request, key: api.keys.administrator });
      expect(response.status, response.text).toBe(accepted.status);
      const cleanup = await api.request('DELETE', accepted.cleanup(response.json), { key: api.keys.administrator });
      expect(cleanup.status, cleanup.text).toBe(200);
      return;
    }
    const request = sample.request === undefined ? undefined : (ids.translate(sample.request) as object);
    const response = await api.request(sample.method, ids.translateString(sample.path), {
      body: request,
      key: sample.authenticated ? api.keys.administrator : undefined,
    });
    if (response.status < 300 && response.json !== undefined) ids.walk(sample.body, response.json);

    const expected = normalise(applyDecisions(sample, ids.translate(sample.body), before));
    const problems =
      response.status === sample.status
        ? differences(expected, normalise(response.json))
        : [`status: ${sample.status} → ${response.status} ${response.text.slice(0, 300)}`];
    for (const name of HEADERS) {
      const recorded = sample.headers.get(name);
      const actual = response.headers.get(name) ?? undefined;
      if (recorded !== actual) problems.push(`header ${name}: ${recorded} → ${actual}`);
    }
    expect(problems, `${sample.scenario} differs from the original:\n  ${problems.join('\n  ')}\n`).toEqual([]);
  });
});
