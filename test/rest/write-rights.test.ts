// Every write checks the caller's right on the record it touches, whatever names the record (id or
// slug) and whichever surface carries the write (REST or GraphQL). The original checks only the
// general capability on its by-slug routes (a contributor could edit or trash anyone's event);
// Almanac does not (README, deviations). Also: trashing never fails on a taken `__trashed` slug.
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/auth/viewer.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer, type TestServer } from '../support/server.js';

const NS = '/wp-json/calendar/events/v1';
type Kind = 'event' | 'venue' | 'organizer';
const PLURAL: Record<Kind, string> = { event: 'events', venue: 'venues', organizer: 'organizers' };
const TYPE: Record<Kind, string> = { event: 'Event', venue: 'Venue', organizer: 'Organizer' };
const ROLES: Role[] = ['subscriber', 'contributor', 'author', 'editor'];
/** Who may change someone else's published record: editors and up (WordPress's edit_others_posts). */
const MAY: Record<Role, boolean> = { subscriber: false, contributor: false, author: false, editor: true, administrator: true };

let counter = 0;
async function published(api: TestServer, kind: Kind, key = api.keys.administrator): Promise<{ id: number; slug: string }> {
  const name = `Rights ${kind} ${++counter}`;
  const body = kind === 'event' ? { title: name, start_date: '2031-06-01 10:00:00', end_date: '2031-06-01 11:00:00' } : { [kind]: name };
  const response = await api.request('POST', `${NS}/${PLURAL[kind]}`, { body, key });
  expect(response.status, response.text).toBe(201);
  return { id: response.json.id, slug: response.json.slug };
}

async function state(api: TestServer, kind: Kind, id: number) {
  const response = await api.request('GET', `${NS}/${PLURAL[kind]}/${id}`, { key: api.keys.administrator });
  return { status: response.json.status as string, title: (kind === 'event' ? response.json.title : response.json[kind]) as string };
}

const titleField = (kind: Kind) => (kind === 'event' ? 'title' : kind);

describe.each(DATABASE_KINDS)('write rights on %s', (kind) => {
  const api = useTestServer(kind);

  describe.each(['event', 'venue', 'organizer'] as Kind[])('%s', (type) => {
    it.each(ROLES)("%s: updates and trashes of an administrator's published record, by id and by slug, REST and GraphQL", async (role) => {
      const key = api.keys[role];
      const record = await published(api, type);
      const before = await state(api, type, record.id);
      const writes: Array<[string, () => Promise<{ ok: boolean; denied: boolean }>]> = [
        [
          'REST update by id',
          async () =>
            rest(
              await api.request('POST', `${NS}/${PLURAL[type]}/${record.id}`, {
                body: { [titleField(type)]: `${before.title} (edited)` },
                key,
              }),
            ),
        ],
        [
          'REST update by slug',
          async () =>
            rest(
              await api.request('POST', `${NS}/${PLURAL[type]}/by-slug/${record.slug}`, {
                body: { [titleField(type)]: `${before.title} (edited)` },
                key,
              }),
            ),
        ],
        [
          'GraphQL update by slug',
          async () =>
            gql(
              await api.graphql(
                `mutation($slug: String, $input: Update${TYPE[type]}Input!) { update${TYPE[type]}(slug: $slug, input: $input) { id } }`,
                { slug: record.slug, input: { [type === 'event' ? 'title' : 'name']: `${before.title} (edited)` } },
                key,
              ),
            ),
        ],
        ['REST trash by slug', async () => rest(await api.request('DELETE', `${NS}/${PLURAL[type]}/by-slug/${record.slug}`, { key }))],
      ];
      for (const [what, write] of writes) {
        const outcome = await write();
        if (MAY[role]) {
          expect(outcome.ok, `${role} ${what}`).toBe(true);
        } else {
          expect(outcome.denied, `${role} ${what}`).toBe(true);
          expect(await state(api, type, record.id), `${role} ${what} changed nothing`).toEqual(before);
        }
      }
      if (!MAY[role]) {
        // By id the same holds, on both surfaces.
        expect(rest(await api.request('DELETE', `${NS}/${PLURAL[type]}/${record.id}`, { key })).denied).toBe(true);
        expect(gql(await api.graphql(`mutation($id: Int) { delete${TYPE[type]}(id: $id) { id } }`, { id: record.id }, key)).denied).toBe(
          true,
        );
        expect((await state(api, type, record.id)).status).toBe('publish');
      }
    });

    it('an author may change and trash their own published record by slug', async () => {
      const own = await published(api, type, api.keys.author);
      expect(
        rest(
          await api.request('POST', `${NS}/${PLURAL[type]}/by-slug/${own.slug}`, {
            body: { [titleField(type)]: 'Mine, edited' },
            key: api.keys.author,
          }),
        ).ok,
      ).toBe(true);
      expect(rest(await api.request('DELETE', `${NS}/${PLURAL[type]}/by-slug/${own.slug}`, { key: api.keys.author })).ok).toBe(true);
    });

    it('trashing twice a record named like an already trashed one gives it a unique trashed slug (never a 500)', async () => {
      const titles = type === 'event' ? { title: 'Dup' } : { [type]: 'Dup' };
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) {
        const body =
          type === 'event'
            ? { ...titles, start_date: '2031-07-01 10:00:00', end_date: '2031-07-01 11:00:00' }
            : { ...titles, description: `copy ${i}` };
        const made = await api.request('POST', `${NS}/${PLURAL[type]}`, { body, key: api.keys.administrator });
        expect(made.status, made.text).toBe(201);
        const gone = await api.request('DELETE', `${NS}/${PLURAL[type]}/${made.json.id}`, { key: api.keys.administrator });
        expect(gone.status, gone.text).toBe(200);
        ids.push(made.json.id);
      }
      // Each is in the trash, and gone from the published list.
      for (const id of ids)
        expect((await api.request('DELETE', `${NS}/${PLURAL[type]}/${id}`, { key: api.keys.administrator })).status).toBe(410);
    });
  });
});

function rest(response: { status: number; json: any }) {
  return { ok: response.status === 200, denied: response.status === 403 || response.status === 401 };
}
function gql(result: { data?: any; errors?: any[] }) {
  const code = result.errors?.[0]?.extensions?.code;
  return { ok: !result.errors, denied: code === 'FORBIDDEN' || code === 'UNAUTHENTICATED' };
}
