// Live calendar changes (Subscription.calendarChanged) over server-sent events, on both databases:
// a subscriber on one server process sees writes made through another within a second, only what it
// may see, and picks up after a reconnect from the last cursor it got.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { collect, subscribe } from '../console/helpers.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { ADMIN_KEY, useTestServer } from '../support/server.js';

const SUBSCRIPTION = `subscription($after: String, $types: [CalendarRecordType!]) {
  calendarChanged(after: $after, types: $types) { cursor changes { type id kind removed record { ... on Event { title } } } } }`;
const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }`;

describe.each(DATABASE_KINDS)('calendarChanged on %s', (kind) => {
  const api = useTestServer(kind);
  let writer: RunningServer;
  beforeAll(async () => {
    writer = await startServer(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', DATABASE_URL: api.databaseUrl, LOG_LEVEL: 'silent', ALMANAC_ADMIN_KEY: ADMIN_KEY }),
    );
  });
  afterAll(async () => {
    await writer?.close();
  });

  const createOnWriter = async (title: string, status = 'publish') => {
    const response = await fetch(`${writer.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': ADMIN_KEY },
      body: JSON.stringify({
        query: CREATE,
        variables: { input: { title, status, startDate: '2031-05-01 10:00:00', endDate: '2031-05-01 11:00:00' } },
      }),
    });
    return ((await response.json()) as any).data.createEvent.id as number;
  };

  it("sees another process's writes within a second, only those it may see, and resumes from its cursor", async () => {
    const live = await subscribe(api.url, SUBSCRIPTION, { types: ['EVENT'] });
    expect(live.contentType).toMatch(/^text\/event-stream/);
    const seen: { title: string; at: number }[] = [];
    const collecting = collect(live, (payload) => {
      for (const change of payload.data.calendarChanged.changes) seen.push({ title: change.record?.title, at: Date.now() });
      return seen.length < 2;
    });
    // The subscription starts at the log's end: let it take its place before writing.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await createOnWriter('Hidden Draft', 'draft');
    await createOnWriter('Open Rehearsal');
    const writtenLast = Date.now();
    await createOnWriter('Dress Rehearsal');
    const { payloads } = await collecting;
    live.close();
    expect(seen.map((one) => one.title)).toEqual(['Open Rehearsal', 'Dress Rehearsal']);
    expect(seen[0]!.at - writtenLast).toBeLessThan(1000);

    // Disconnected, then back with the last cursor received: what was written meanwhile comes first.
    const last = payloads.at(-1).data.calendarChanged.cursor;
    await createOnWriter('While Away');
    const again = await subscribe(api.url, SUBSCRIPTION, { after: last, types: ['EVENT'] });
    const resumed = await collect(again, () => false);
    again.close();
    expect(resumed.payloads[0].data.calendarChanged.changes.map((c: any) => c.record.title)).toEqual(['While Away']);
  });

  it('refuses a malformed cursor before streaming', async () => {
    const bad = await subscribe(api.url, SUBSCRIPTION, { after: 'nope' });
    const { payloads } = await collect(bad, () => false, 5000);
    bad.close();
    const errors = payloads[0]?.errors ?? JSON.parse(bad.text ?? '{}').errors;
    expect(errors?.[0]?.extensions?.code).toBe('INVALID_INPUT');
  });
});
