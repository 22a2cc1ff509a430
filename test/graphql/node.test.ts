// Global object identification over HTTP on both databases: every fetchable type implements Node
// with an opaque `nodeId` (its `id` stays the database id), and Query.node / Query.nodes answer
// exactly what the type's own query shows the caller — hidden and absent records alike read null.
import { ApolloClient, HttpLink, InMemoryCache, gql as apolloGql } from '@apollo/client';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../src/auth/viewer.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { useTestServer } from '../support/server.js';

type Caller = Role | 'anonymous';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const nodeIdOf = (type: string, id: number | string) => b64(`${type}:${id}`);

/** What the tests read of any node: the database id of every type, aliased where it is an ID. */
const NODE = `__typename nodeId
  ... on Event { id title status masked description }
  ... on Venue { id name status }
  ... on Organizer { id name status }
  ... on EventCategory { id name parent { id nodeId } }
  ... on Tag { id name }
  ... on Task { uuid: id task }
  ... on TaskRun { uuid: id taskId }
  ... on ImportJob { id source }`;

describe.each(DATABASE_KINDS)('Node, node(nodeId) and nodes(nodeIds) on %s', (kind) => {
  const api = useTestServer(kind);
  const ids: Record<string, number> = {};
  const tasks: { mine: string; run: string } = { mine: '', run: '' };
  let importJob = 0;

  async function gql(query: string, variables: Record<string, unknown> = {}, as: Caller = 'administrator') {
    return api.graphql(query, variables, as === 'anonymous' ? undefined : api.keys[as]);
  }
  async function made(query: string, variables: Record<string, unknown>, as: Caller = 'administrator'): Promise<any> {
    const result = await gql(query, variables, as);
    if (result.errors) throw new Error(JSON.stringify(result.errors));
    return Object.values(result.data)[0];
  }
  const node = (nodeId: string, as: Caller = 'anonymous') =>
    gql(`query($nodeId: ID!) { node(nodeId: $nodeId) { ${NODE} } }`, { nodeId }, as);
  const nodes = (nodeIds: string[], as: Caller = 'anonymous') =>
    gql(`query($nodeIds: [ID!]!) { nodes(nodeIds: $nodeIds) { ${NODE} } }`, { nodeIds }, as);

  const createEvent = (input: Record<string, unknown>, as: Caller = 'administrator') =>
    made(
      `mutation($input: CreateEventInput!) { createEvent(input: $input) { id nodeId } }`,
      {
        input: { startDate: '2031-05-01 10:00:00', endDate: '2031-05-01 12:00:00', description: 'About it', ...input },
      },
      as,
    );

  beforeAll(async () => {
    ids.venue = (await made(`mutation { createVenue(input: { name: "Node Hall" }) { id } }`, {})).id;
    ids.organizer = (await made(`mutation { createOrganizer(input: { name: "Node Org" }) { id } }`, {})).id;
    ids.parentCategory = (await made(`mutation { createEventCategory(input: { name: "Node Parent" }) { id } }`, {})).id;
    ids.category = (
      await made(`mutation($parent: ID) { createEventCategory(input: { name: "Node Child", parent: $parent }) { id } }`, {
        parent: String(ids.parentCategory),
      })
    ).id;
    ids.tag = (await made(`mutation { createTag(input: { name: "Node Tag" }) { id } }`, {})).id;
    ids.event = (
      await createEvent({
        title: 'Node Party',
        venue: ids.venue,
        organizer: [ids.organizer],
        categories: [String(ids.category)],
        tags: [String(ids.tag)],
      })
    ).id;
    ids.draft = (await createEvent({ title: 'Author draft', status: 'draft' }, 'author')).id;
    ids.private = (await createEvent({ title: 'Private one', status: 'private' })).id;
    ids.protected = (await createEvent({ title: 'Locked', password: 'sesame' })).id;
    ids.trashed = (await createEvent({ title: 'Binned' })).id;
    await made(`mutation($id: Int) { deleteEvent(id: $id) { id } }`, { id: ids.trashed });
    ids.draftVenue = (await made(`mutation { createVenue(input: { name: "Draft Hall" }) { id status } }`, {}, 'contributor')).id;

    // Tasks and import jobs straight into the database: no worker or source is needed to fetch them.
    const prisma = api.server.db.prisma;
    const editor = await prisma.user.findUniqueOrThrow({ where: { login: 'editor' } });
    tasks.mine = randomUUID();
    tasks.run = randomUUID();
    await prisma.task.create({
      data: { id: tasks.mine, ownerId: editor.id, task: 'Find the node', agent: 'BROWSER_AGENT', status: 'inactive' },
    });
    await prisma.taskRun.create({ data: { id: tasks.run, taskId: tasks.mine, status: 'completed', detailedStatus: 'completed' } });
    importJob = (
      await prisma.importJob.create({ data: { kind: 'ical', source: 'https://calendar.example/feed.ics', status: 'completed' } })
    ).id;
  });

  it('gives every type a nodeId (base64 of "Type:id") and keeps id the database id', async () => {
    const created = await createEvent({ title: 'Fresh' });
    expect(created.nodeId).toBe(nodeIdOf('Event', created.id));
    const result = await gql(
      `query($id: Int!) { event(id: $id) { id nodeId venue { id nodeId } organizers { id nodeId } categories { id nodeId } tags { id nodeId } } }`,
      { id: ids.event },
    );
    expect(result.errors).toBeUndefined();
    expect(result.data.event).toEqual({
      id: ids.event,
      nodeId: nodeIdOf('Event', ids.event),
      venue: { id: ids.venue, nodeId: nodeIdOf('Venue', ids.venue) },
      organizers: [{ id: ids.organizer, nodeId: nodeIdOf('Organizer', ids.organizer) }],
      categories: [{ id: ids.category, nodeId: nodeIdOf('EventCategory', ids.category) }],
      tags: [{ id: ids.tag, nodeId: nodeIdOf('Tag', ids.tag) }],
    });
  });

  it('fetches each calendar type by nodeId, anonymously', async () => {
    const event = await node(nodeIdOf('Event', ids.event));
    expect(event.errors).toBeUndefined();
    expect(event.data.node).toEqual({
      __typename: 'Event',
      nodeId: nodeIdOf('Event', ids.event),
      id: ids.event,
      title: 'Node Party',
      status: 'PUBLISH',
      masked: false,
      description: 'About it',
    });
    expect((await node(nodeIdOf('Venue', ids.venue))).data.node).toEqual({
      __typename: 'Venue',
      nodeId: nodeIdOf('Venue', ids.venue),
      id: ids.venue,
      name: 'Node Hall',
      status: 'PUBLISH',
    });
    expect((await node(nodeIdOf('Organizer', ids.organizer))).data.node).toMatchObject({ __typename: 'Organizer', id: ids.organizer });
    expect((await node(nodeIdOf('EventCategory', ids.category))).data.node).toEqual({
      __typename: 'EventCategory',
      nodeId: nodeIdOf('EventCategory', ids.category),
      id: ids.category,
      name: 'Node Child',
      parent: { id: ids.parentCategory, nodeId: nodeIdOf('EventCategory', ids.parentCategory) },
    });
    expect((await node(nodeIdOf('Tag', ids.tag))).data.node).toMatchObject({ __typename: 'Tag', id: ids.tag, name: 'Node Tag' });
  });

  it('answers null for records of another type: a global id names one type', async () => {
    // Events, venues and organizers share an id space, and so do categories and tags.
    for (const nodeId of [
      nodeIdOf('Event', ids.venue),
      nodeIdOf('Venue', ids.event),
      nodeIdOf('Organizer', ids.venue),
      nodeIdOf('Tag', ids.category),
      nodeIdOf('EventCategory', ids.tag),
    ]) {
      const result = await node(nodeId, 'administrator');
      expect(result.errors).toBeUndefined();
      expect(result.data.node).toBeNull();
    }
  });

  it('shows drafts, private and trashed events exactly to whom event(id) shows them', async () => {
    const draft = nodeIdOf('Event', ids.draft);
    const privateOne = nodeIdOf('Event', ids.private);
    const trashed = nodeIdOf('Event', ids.trashed);
    const seen = async (nodeId: string, as: Caller) => {
      const result = await node(nodeId, as);
      expect(result.errors).toBeUndefined();
      return result.data.node?.id ?? null;
    };
    const byEventQuery = async (id: number, as: Caller) => {
      const result = await gql(`query($id: Int!) { event(id: $id) { id } }`, { id }, as);
      return result.data?.event?.id ?? null;
    };
    for (const as of ['anonymous', 'subscriber', 'contributor', 'author', 'editor', 'administrator'] as Caller[]) {
      for (const id of [ids.draft, ids.private, ids.trashed]) {
        expect({ as, id, node: await seen(nodeIdOf('Event', id), as) }).toEqual({ as, id, node: await byEventQuery(id, as) });
      }
    }
    // Spelled out: the author's draft is theirs and editors'; the private event editors'; the trashed one nobody's.
    expect(await seen(draft, 'anonymous')).toBeNull();
    expect(await seen(draft, 'contributor')).toBeNull();
    expect(await seen(draft, 'author')).toBe(ids.draft);
    expect(await seen(draft, 'editor')).toBe(ids.draft);
    expect(await seen(privateOne, 'author')).toBeNull();
    expect(await seen(privateOne, 'editor')).toBe(ids.private);
    expect(await seen(trashed, 'administrator')).toBeNull();
  });

  it('shows a draft venue to its author and editors only, as venue(id) does', async () => {
    const draftVenue = nodeIdOf('Venue', ids.draftVenue);
    expect((await node(draftVenue, 'anonymous')).data.node).toBeNull();
    expect((await node(draftVenue, 'author')).data.node).toBeNull();
    expect((await node(draftVenue, 'contributor')).data.node).toMatchObject({ id: ids.draftVenue, status: 'DRAFT' });
    expect((await node(draftVenue, 'editor')).data.node).toMatchObject({ id: ids.draftVenue, status: 'DRAFT' });
  });

  it('masks a password-protected event, as lists do', async () => {
    const result = await node(nodeIdOf('Event', ids.protected));
    expect(result.errors).toBeUndefined();
    expect(result.data.node).toMatchObject({ id: ids.protected, title: 'Locked', masked: true, description: '' });
  });

  it('shows tasks and runs to their owner only, and import jobs to administrators', async () => {
    const task = nodeIdOf('Task', tasks.mine);
    const run = nodeIdOf('TaskRun', tasks.run);
    expect((await node(task, 'editor')).data.node).toEqual({ __typename: 'Task', nodeId: task, uuid: tasks.mine, task: 'Find the node' });
    expect((await node(run, 'editor')).data.node).toEqual({ __typename: 'TaskRun', nodeId: run, uuid: tasks.run, taskId: tasks.mine });
    // Runs change without the calendar's version moving: a run read through node is never a kept answer.
    const status = `query($nodeId: ID!) { node(nodeId: $nodeId) { ... on TaskRun { liveStatus } } }`;
    expect((await gql(status, { nodeId: run }, 'editor')).data.node).toEqual({ liveStatus: '' });
    await api.server.db.prisma.taskRun.update({ where: { id: tasks.run }, data: { liveStatus: 'Done' } });
    expect((await gql(status, { nodeId: run }, 'editor')).data.node).toEqual({ liveStatus: 'Done' });
    for (const as of ['anonymous', 'author', 'administrator'] as Caller[]) {
      const result = await nodes([task, run], as);
      expect(result.errors).toBeUndefined();
      expect(result.data.nodes).toEqual([null, null]);
    }
    const job = nodeIdOf('ImportJob', importJob);
    expect((await node(job, 'administrator')).data.node).toEqual({
      __typename: 'ImportJob',
      nodeId: job,
      id: importJob,
      source: 'https://calendar.example/feed.ics',
    });
    // A job's progress is not the calendar's data either: never a kept answer.
    const progress = `query($nodeId: ID!) { node(nodeId: $nodeId) { ... on ImportJob { processed } } }`;
    expect((await gql(progress, { nodeId: job })).data.node).toEqual({ processed: 0 });
    await api.server.db.prisma.importJob.update({ where: { id: importJob }, data: { cursor: JSON.stringify({ read: 7 }) } });
    expect((await gql(progress, { nodeId: job })).data.node).toEqual({ processed: 7 });
    expect((await node(job, 'editor')).data.node).toBeNull();
    expect((await node(job, 'anonymous')).data.node).toBeNull();
  });

  it('answers null, without an error, for malformed and unknown ids', async () => {
    const malformed = [
      '',
      'nonsense',
      '!!!!',
      String(ids.event),
      b64(`Event:${ids.event}`).replace(/=+$/, ''), // not canonical base64
      b64('Event'),
      b64(`Event:`),
      b64(`Event:abc`),
      b64(`Event:-1`),
      b64(`Event:0${ids.event}`),
      b64(`Event:99999999999`),
      b64(`Event:${ids.event}:1`),
      b64(`Nope:${ids.event}`),
      b64(`Node:${ids.event}`),
      b64(`event:${ids.event}`),
      b64(`Task:../../etc`),
      'x'.repeat(5000),
    ];
    const unknown = [nodeIdOf('Event', 987_654), nodeIdOf('Tag', 987_654), nodeIdOf('Task', randomUUID())];
    for (const nodeId of [...malformed, ...unknown]) {
      const result = await node(nodeId, 'administrator');
      expect({ nodeId, errors: result.errors, node: result.data?.node }).toEqual({ nodeId, errors: undefined, node: null });
    }
    const many = await nodes([...malformed, ...unknown], 'administrator');
    expect(many.errors).toBeUndefined();
    expect(many.data.nodes).toEqual([...malformed, ...unknown].map(() => null));
  });

  it('answers nodes in the order given, with null where node would be null', async () => {
    const asked = [
      nodeIdOf('Tag', ids.tag),
      nodeIdOf('Event', ids.draft),
      'garbage',
      nodeIdOf('Event', ids.event),
      nodeIdOf('Venue', ids.venue),
      nodeIdOf('Event', ids.event),
      nodeIdOf('Organizer', ids.organizer),
    ];
    const anonymous = await nodes(asked);
    expect(anonymous.errors).toBeUndefined();
    expect(anonymous.data.nodes.map((n: any) => n && `${n.__typename}:${n.id}`)).toEqual([
      `Tag:${ids.tag}`,
      null,
      null,
      `Event:${ids.event}`,
      `Venue:${ids.venue}`,
      `Event:${ids.event}`,
      `Organizer:${ids.organizer}`,
    ]);
    const author = await nodes(asked, 'author');
    expect(author.data.nodes[1]).toMatchObject({ __typename: 'Event', id: ids.draft, title: 'Author draft' });
    expect(await nodes([])).toMatchObject({ data: { nodes: [] } });
  });

  /** The SQL statements the server issues while `run` runs (its task workers' polls included), and what it returned. */
  async function statementsOf<T>(run: () => Promise<T>): Promise<{ statements: string[]; result: T }> {
    const statements: string[] = [];
    const stop = api.server.db.observe(({ query }: { query: string }) => statements.push(query));
    try {
      return { result: await run(), statements };
    } finally {
      stop();
    }
  }
  /** Those on the calendar's tables. */
  const onCalendar = (statements: string[]) => statements.filter((q) => /[`"](Venue|Term|Event|EventVenue|EventTerm)[`"]/.test(q));

  it('loads the records of one type in one statement, however many are asked', async () => {
    const many = [ids.event, ids.draft, ids.private, ids.protected, ids.trashed, 987_654].map((id) => nodeIdOf('Event', id));
    const { result, statements } = await statementsOf(() => nodes(many, 'editor'));
    expect(result.errors).toBeUndefined();
    expect(result.data.nodes.map((n: any) => n?.id ?? null)).toEqual([ids.event, ids.draft, ids.private, ids.protected, null, null]);
    expect(onCalendar(statements)).toEqual([expect.stringMatching(/FROM [`"](main|public)[`"]\.[`"]Event[`"] WHERE/)]);
  });

  it('loads the relations a nodes query selects with the records, a statement per level, not per record', async () => {
    const query = `query($nodeIds: [ID!]!) { nodes(nodeIds: $nodeIds) {
      nodeId ... on Venue { id events { id } } ... on EventCategory { id parent { id } children { id } events { id } }
    } }`;
    const ask = (nodeIds: string[]) => statementsOf(() => gql(query, { nodeIds }, 'editor'));
    const one = await ask([nodeIdOf('Venue', ids.venue), nodeIdOf('EventCategory', ids.category)]);
    const two = await ask([
      nodeIdOf('Venue', ids.venue),
      nodeIdOf('Venue', ids.draftVenue),
      nodeIdOf('EventCategory', ids.category),
      nodeIdOf('EventCategory', ids.parentCategory),
    ]);
    expect(one.result.errors).toBeUndefined();
    expect(two.result.errors).toBeUndefined();
    expect(two.result.data.nodes.map((n: any) => n.id)).toEqual([ids.venue, ids.draftVenue, ids.category, ids.parentCategory]);
    expect(two.result.data.nodes[0].events.map((e: any) => e.id)).toContain(ids.event);
    expect(two.result.data.nodes[3].children.map((c: any) => c.id)).toEqual([ids.category]);
    // Venues; their event links, then events; terms; parents; children; term links, then events.
    expect(onCalendar(two.statements)).toHaveLength(onCalendar(one.statements).length);
    expect(onCalendar(two.statements).length).toBeLessThanOrEqual(8);
  });

  it('lets Apollo Client fetch node and key its cache by nodeId', async () => {
    const NODE_TYPES = ['Event', 'Venue', 'Organizer', 'EventCategory', 'Tag', 'Task', 'TaskRun', 'ImportJob'];
    const cache = new InMemoryCache({
      possibleTypes: { Node: NODE_TYPES },
      typePolicies: Object.fromEntries(NODE_TYPES.map((type) => [type, { keyFields: ['nodeId'] }])),
    });
    const apollo = new ApolloClient({
      link: new HttpLink({ uri: `${api.url}/graphql`, headers: { 'x-api-key': api.keys.administrator } }),
      cache,
    });
    const created = await createEvent({ title: 'Apollo node', venue: ids.venue });
    const venueNodeId = nodeIdOf('Venue', ids.venue);
    const byNode = apolloGql`
      query ByNode($nodeId: ID!) {
        node(nodeId: $nodeId) { nodeId ... on Event { id title venue { nodeId id name } } }
      }
    `;
    const first = await apollo.query<any>({ query: byNode, variables: { nodeId: created.nodeId } });
    expect(first.data).toEqual({
      node: {
        __typename: 'Event',
        nodeId: created.nodeId,
        id: created.id,
        title: 'Apollo node',
        venue: { __typename: 'Venue', nodeId: venueNodeId, id: ids.venue, name: 'Node Hall' },
      },
    });
    expect(cache.identify(first.data.node)).toBe(`Event:{"nodeId":"${created.nodeId}"}`);

    // A mutation's answer lands on the same cache entry: the node query reads the new title without a request.
    await apollo.mutate({
      mutation: apolloGql`
        mutation Rename($id: Int, $input: UpdateEventInput!) { updateEvent(id: $id, input: $input) { nodeId title } }
      `,
      variables: { id: created.id, input: { title: 'Apollo renamed' } },
    });
    const cached = await apollo.query<any>({ query: byNode, variables: { nodeId: created.nodeId }, fetchPolicy: 'cache-only' });
    expect(cached.data.node.title).toBe('Apollo renamed');

    // nodes, with a hidden and a malformed id: nulls in place, and the venue still one entry.
    const many = await apollo.query<any>({
      query: apolloGql`
        query Many($nodeIds: [ID!]!) { nodes(nodeIds: $nodeIds) { nodeId ... on Venue { id name } ... on Tag { id name } } }
      `,
      variables: { nodeIds: [venueNodeId, nodeIdOf('Event', ids.trashed), nodeIdOf('Tag', ids.tag), 'garbage'] },
    });
    expect(many.data.nodes).toEqual([
      { __typename: 'Venue', nodeId: venueNodeId, id: ids.venue, name: 'Node Hall' },
      null,
      { __typename: 'Tag', nodeId: nodeIdOf('Tag', ids.tag), id: ids.tag, name: 'Node Tag' },
      null,
    ]);
    expect(Object.keys(cache.extract()).filter((key) => key.startsWith('Venue:'))).toEqual([`Venue:{"nodeId":"${venueNodeId}"}`]);
  });

  it('refuses more than 100 ids with INVALID_INPUT', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => nodeIdOf('Event', 900_000 + i));
    const ok = await nodes(hundred);
    expect(ok.errors).toBeUndefined();
    expect(ok.data.nodes).toHaveLength(100);
    const tooMany = await nodes([...hundred, nodeIdOf('Event', ids.event)]);
    expect(tooMany.status).toBe(200);
    expect(tooMany.data).toBeNull();
    expect(tooMany.errors).toHaveLength(1);
    expect(tooMany.errors![0].extensions).toMatchObject({ code: 'INVALID_INPUT', params: { nodeIds: expect.any(String) } });
  });

  it('keeps node queries inside the depth and alias bounds, with a coded error', async () => {
    const deep = `query($nodeId: ID!) { node(nodeId: $nodeId) { ... on Venue { events { venue { events { venue { events { venue { events { venue { events { venue { events { title } } } } } } } } } } } } } }`;
    const result = await gql(deep, { nodeId: nodeIdOf('Venue', ids.venue) }, 'anonymous');
    expect(result.data).toBeUndefined();
    expect(result.errors?.[0].message).toMatch(/depth/i);
    expect(result.errors?.[0].extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'depth' });
    const aliases = Array.from({ length: 61 }, (_, i) => `n${i}: node(nodeId: "x") { nodeId }`).join(' ');
    const wide = await gql(`{ ${aliases} }`, {}, 'anonymous');
    expect(wide.data).toBeUndefined();
    expect(wide.errors?.[0].extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', limit: 'aliases' });
  });

  it('needs the nodeId argument: a missing one is a coded validation error', async () => {
    const result = await gql(`{ node { nodeId } }`, {}, 'anonymous');
    expect(result.errors?.[0].extensions?.code).toEqual(expect.any(String));
  });
});
