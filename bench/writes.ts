// Write throughput (npm run bench -- --writes): clients spread over the server processes, each
// sending its next write as soon as its last one was answered, for a fixed time per kind of write:
// REST and GraphQL creates (each event with a venue and a category), then REST and GraphQL updates
// of the events each client created. Every answer must be a success.

const REST = '/wp-json/tribe/events/v1';

export interface WriteTarget {
  /** The servers' base URLs: client i writes to bases[i % bases.length]. */
  bases: string[];
  clients: number;
  seconds: number;
  adminKey: string;
  venueIds: number[];
  categoryIds: number[];
}

export interface WriteRow {
  name: string;
  writes: number;
  perSecond: number;
  p50: number;
  p99: number;
}

interface Client {
  base: string;
  created: number[];
}

type Write = (client: Client, n: number) => Promise<void>;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

export async function measureWrites(target: WriteTarget, log: (line: string) => void): Promise<WriteRow[]> {
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${target.adminKey}` };
  const clients: Client[] = Array.from({ length: target.clients }, (_, i) => ({
    base: target.bases[i % target.bases.length]!,
    created: [],
  }));
  const pick = <T>(list: T[], n: number) => list[n % list.length]!;
  // Distinct titles: a shared one would make every create look up a longer run of taken slugs.
  const title = (kind: string, n: number) => `Bench ${kind} ${process.pid} ${n}`;
  const day = (n: number) => `2031-${String((n % 12) + 1).padStart(2, '0')}-${String((n % 28) + 1).padStart(2, '0')}`;

  /** The parts of the answers read here: a REST event's id, a GraphQL create's id. */
  type Answer = { id: number; data: { createEvent: { id: number } } };
  async function send(client: Client, path: string, body: unknown): Promise<Answer> {
    const response = await fetch(client.base + path, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await response.text();
    if (response.status >= 300) throw new Error(`${path}: HTTP ${response.status}: ${text.slice(0, 300)}`);
    const json = JSON.parse(text) as Answer & { errors?: unknown };
    if (json.errors) throw new Error(`${path}: ${text.slice(0, 300)}`);
    return json;
  }
  const graphql = (client: Client, query: string, variables: unknown) => send(client, '/graphql', { query, variables });

  const restCreate: Write = async (client, n) => {
    const event = await send(client, `${REST}/events`, {
      title: title('REST', n),
      start_date: `${day(n)} 09:00:00`,
      end_date: `${day(n)} 10:00:00`,
      status: 'publish',
      venue: pick(target.venueIds, n),
      categories: [pick(target.categoryIds, n)],
    });
    client.created.push(event.id);
  };
  const graphqlCreate: Write = async (client, n) => {
    const { data } = await graphql(client, 'mutation($input: CreateEventInput!) { createEvent(input: $input) { id } }', {
      input: {
        title: title('GraphQL', n),
        startDate: `${day(n)} 11:00:00`,
        endDate: `${day(n)} 12:00:00`,
        status: 'publish',
        venue: pick(target.venueIds, n),
        categories: [String(pick(target.categoryIds, n))],
      },
    });
    client.created.push(data.createEvent.id);
  };
  const restUpdate: Write = async (client, n) => {
    await send(client, `${REST}/events/${pick(client.created, n)}`, { title: title('REST update', n) });
  };
  const graphqlUpdate: Write = async (client, n) => {
    await graphql(client, 'mutation($id: Int!, $input: UpdateEventInput!) { updateEvent(id: $id, input: $input) { id } }', {
      id: pick(client.created, n),
      input: { title: title('GraphQL update', n) },
    });
  };

  /** Every client writing for a second not counted, then `seconds`: the rate and latencies of the writes started then. */
  async function run(name: string, write: Write): Promise<WriteRow> {
    let n = 0;
    const latencies: number[] = [];
    const warmUpEnd = Date.now() + 1000;
    const end = warmUpEnd + target.seconds * 1000;
    await Promise.all(
      clients.map(async (client) => {
        while (Date.now() < end) {
          const started = performance.now();
          const at = Date.now();
          await write(client, n++);
          if (at < warmUpEnd) continue;
          latencies.push(performance.now() - started);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    const row = {
      name,
      writes: latencies.length,
      perSecond: latencies.length / target.seconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
    log(`${name}: ${row.perSecond.toFixed(0)} writes/s, p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms (${row.writes} writes)`);
    return row;
  }

  return [
    await run('REST create (venue + category)', restCreate),
    await run('GraphQL create (venue + category)', graphqlCreate),
    await run('REST update (title)', restUpdate),
    await run('GraphQL update (title)', graphqlUpdate),
  ];
}
