// An event's, venue's or organizer's `rights` say what the caller may do to it exactly as the
// mutations then decide: each right is checked against the mutation it stands for, for a
// contributor on their own draft, their own published event and someone else's, on both databases.
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

describe.each(DATABASE_KINDS)('rights of a record (%s)', (kind) => {
  const t = useTestServer(kind);

  async function create(title: string, key: string, status: string) {
    const input = { title, startDate: '2031-08-01 10:00:00', endDate: '2031-08-01 11:00:00', status };
    const { data, errors } = await t.graphql(`mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }`, { input }, key);
    expect(errors).toBeUndefined();
    return data.createEvent.id as number;
  }
  const rightsOf = async (id: number, key: string) =>
    (await t.graphql(`query($id: Int!) { event(id: $id) { rights { edit delete publish } } }`, { id }, key)).data.event.rights;

  it("answers edit, delete and publish as updateEvent and deleteEvent then do for a contributor's own and others' events", async () => {
    const draft = await create('Own draft', t.keys.contributor, 'draft');
    const published = await create('Own, published by an editor', t.keys.contributor, 'draft');
    await t.graphql(`mutation($id: Int!) { updateEvent(id: $id, input: { status: "publish" }) { id } }`, { id: published }, t.keys.editor);
    const others = await create('Someone else’s', t.keys.editor, 'publish');

    expect(await rightsOf(draft, t.keys.contributor)).toEqual({ edit: true, delete: true, publish: false });
    expect(await rightsOf(published, t.keys.contributor)).toEqual({ edit: false, delete: false, publish: false });
    expect(await rightsOf(others, t.keys.contributor)).toEqual({ edit: false, delete: false, publish: false });
    expect(await rightsOf(others, t.keys.editor)).toEqual({ edit: true, delete: true, publish: true });

    for (const id of [draft, published, others]) {
      const rights = await rightsOf(id, t.keys.contributor);
      const update = await t.graphql(
        `mutation($id: Int!) { updateEvent(id: $id, input: { status: "publish" }) { status } }`,
        { id },
        t.keys.contributor,
      );
      expect(update.errors === undefined, `update ${id}`).toBe(rights.edit);
      if (rights.edit) expect(update.data.updateEvent.status).not.toBe('PUBLISH'); // no publish right: scaled back
      const remove = await t.graphql(`mutation($id: Int!) { deleteEvent(id: $id) { id } }`, { id }, t.keys.contributor);
      expect(remove.errors === undefined, `delete ${id}`).toBe(rights.delete);
    }
  });

  it('is on venues and organizers and in lists', async () => {
    const { data, errors } = await t.graphql(
      `mutation { createVenue(input: { name: "Rights hall", status: "publish" }) { id rights { edit delete publish } } }`,
      {},
      t.keys.editor,
    );
    expect(errors).toBeUndefined();
    expect(data.createVenue.rights).toEqual({ edit: true, delete: true, publish: true });
    const list = await t.graphql(
      `{ venues(filter: { search: "Rights hall" }) { items { rights { edit delete publish } } } organizers { items { rights { edit } } } }`,
      {},
      t.keys.contributor,
    );
    expect(list.errors).toBeUndefined();
    expect(list.data.venues.items).toEqual([{ rights: { edit: false, delete: false, publish: false } }]);
  });
});
