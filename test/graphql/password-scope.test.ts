// A password given on one root field unlocks that field's records only: never a sibling's, in
// either order of the fields, for events and for venues.
import { describe, expect, it } from 'vitest';
import { daysFromNow } from '../support/clock.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

describe.each(DATABASE_KINDS)('password scope on %s', (kind) => {
  const api = useTestServer(kind);

  it('an event password unlocks its own field, not another root field, whichever comes first', async () => {
    const made = await api.graphql(
      'mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }',
      {
        input: {
          title: 'Locked supper',
          description: 'The secret menu',
          password: 'pw',
          startDate: daysFromNow(3),
          endDate: daysFromNow(3, '12:00:00'),
        },
      },
      api.keys.administrator,
    );
    expect(made.errors).toBeUndefined();
    const id = made.data.createEvent.id;
    const fields = 'id masked description';
    const first = await api.graphql(
      `query($id: Int) { a: event(id: $id, password: "pw") { ${fields} } b: events { items { ${fields} } } }`,
      { id },
    );
    expect(first.errors).toBeUndefined();
    expect(first.data.a).toEqual({ id, masked: false, description: 'The secret menu' });
    expect(first.data.b.items.find((e: any) => e.id === id)).toEqual({ id, masked: true, description: '' });

    const second = await api.graphql(
      `query($id: Int) { b: events(password: "wrong") { items { ${fields} } } a: event(id: $id, password: "pw") { ${fields} } c: events { items { ${fields} } } }`,
      { id },
    );
    expect(second.errors).toBeUndefined();
    expect(second.data.a.masked).toBe(false);
    expect(second.data.b.items.find((e: any) => e.id === id).masked).toBe(true);
    expect(second.data.c.items.find((e: any) => e.id === id).masked).toBe(true);

    const listUnlocked = await api.graphql(`{ b: events(password: "pw") { items { ${fields} } } c: events { items { ${fields} } } }`);
    expect(listUnlocked.errors).toBeUndefined();
    expect(listUnlocked.data.b.items.find((e: any) => e.id === id).masked).toBe(false);
    expect(listUnlocked.data.c.items.find((e: any) => e.id === id).masked).toBe(true);
  });

  it('a venue password unlocks its own field only', async () => {
    const made = await api.graphql(
      'mutation { createVenue(input: { name: "Hidden cellar", phone: "555-0199", password: "cellar" }) { id } }',
      {},
      api.keys.administrator,
    );
    expect(made.errors).toBeUndefined();
    const id = made.data.createVenue.id;
    const both = await api.graphql(
      `query($id: Int) { open: venue(id: $id, password: "cellar") { phone masked } shut: venue(id: $id) { phone masked } }`,
      { id },
    );
    expect(both.errors).toBeUndefined();
    expect(both.data.open).toEqual({ phone: '555-0199', masked: false });
    expect(both.data.shut).toEqual({ phone: '', masked: true });
  });
});
