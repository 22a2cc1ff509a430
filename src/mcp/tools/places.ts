// Venue and organizer tools: list, get, create, update and trash. The two are "linked posts" with
// the same GraphQL shape (venues(filter), venue(id|slug), createVenue…), so one factory makes both.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { bounded, defined, defineTool, runAs, type McpDeps } from '../tool-kit.js';

interface LinkedKind {
  /** Singular and plural tool names and the GraphQL names: venue / Venue. */
  one: 'venue' | 'organizer';
  many: 'venues' | 'organizers';
  type: 'Venue' | 'Organizer';
  /** Its own fields beyond name, description, phone and website. */
  fields: Record<string, string>;
}

const KINDS: LinkedKind[] = [
  {
    one: 'venue',
    many: 'venues',
    type: 'Venue',
    fields: { address: 'Street address.', city: 'City.', stateprovince: 'State or province.', zip: 'Postal code.', country: 'Country.' },
  },
  { one: 'organizer', many: 'organizers', type: 'Organizer', fields: { email: 'E-mail address.' } },
];

const COMMON_FIELDS = { phone: 'Phone number.', website: 'Website URL.' };

function register(server: McpServer, deps: McpDeps, kind: LinkedKind): void {
  const { one, many, type } = kind;
  const own = { ...kind.fields, ...COMMON_FIELDS };
  const selection = `id name slug status url description ${Object.keys(own).join(' ')}`;
  const output = z.object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    status: z.string(),
    url: z.string(),
    description: z.string().describe('Cut at 2,000 characters, with a note saying so.'),
    ...Object.fromEntries(Object.entries(own).map(([name, what]) => [name, z.string().describe(what)])),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the shape of `selection`, as GraphQL answers it
  const view = (record: any) => ({ ...record, status: String(record.status).toLowerCase(), description: bounded(record.description) });
  const line = (record: { id: number; name: string; status: string }) => `#${record.id} ${record.name} [${record.status}]`;
  const writable = {
    description: z.string().optional().describe('Description (HTML allowed).'),
    status: z.string().optional().describe('publish, draft, pending or private; roles that cannot publish get pending/draft.'),
    ...Object.fromEntries(Object.entries(own).map(([name, what]) => [name, z.string().optional().describe(`${what} "" clears.`)])),
  };
  const byId = {
    id: z.number().int().optional().describe(`The ${one} id.`),
    slug: z.string().optional().describe(`The ${one} slug (when no id).`),
  };
  const answer = { [one]: output };

  defineTool(
    server,
    deps,
    `list_${many}`,
    {
      title: `List ${many}`,
      description: `${type}s the caller may see, newest first, with a search and paging.`,
      input: {
        search: z.string().optional().describe(`Text that one field of the ${one} must contain (name, description, address…).`),
        status: z.array(z.string()).optional().describe('Statuses to list; only those who can edit may ask for more than publish.'),
        onlyWithUpcoming: z.boolean().optional().describe(`Only ${many} with an upcoming event.`),
        page: z.number().int().min(1).default(1).describe('The page, from 1.'),
        perPage: z.number().int().min(1).max(50).default(20).describe('Items per page (1–50).'),
      },
      output: {
        [many]: z.array(output),
        total: z.number().int(),
        page: z.number().int(),
        totalPages: z.number().int(),
      },
      kind: 'read',
    },
    async ({ page, perPage, ...filter }, { viewer }) => {
      const data = await runAs(
        deps,
        viewer,
        `query($filter: ${type}Filter, $page: PageInput) { ${many}(filter: $filter, page: $page) { total totalPages page items { ${selection} } } }`,
        { filter: defined(filter), page: { page, perPage } },
      );
      const result = data[many];
      const items = result.items.map(view);
      return {
        summary: `${result.total} ${many}; page ${result.page} of ${result.totalPages}.\n${items.map(line).join('\n')}`,
        data: { [many]: items, total: result.total, page: result.page, totalPages: result.totalPages },
      };
    },
  );

  defineTool(
    server,
    deps,
    `get_${one}`,
    { title: `Get a ${one}`, description: `One ${one} by id or slug.`, input: byId, output: answer, kind: 'read' },
    async ({ id, slug }, { viewer }) => {
      const data = await runAs(deps, viewer, `query($id: Int, $slug: String) { ${one}(id: $id, slug: $slug) { ${selection} } }`, {
        id,
        slug,
      });
      const record = view(data[one]);
      return { summary: line(record), data: { [one]: record } };
    },
  );

  defineTool(
    server,
    deps,
    `create_${one}`,
    {
      title: `Create a ${one}`,
      description: `Creates a ${one} (contributors and up), or reuses an existing one of the same name.`,
      input: { name: z.string().describe(`The ${one}'s name (not empty).`), ...writable },
      output: answer,
      kind: 'write',
    },
    async (input, { viewer }) => {
      const data = await runAs(deps, viewer, `mutation($input: Create${type}Input!) { create${type}(input: $input) { ${selection} } }`, {
        input: defined(input),
      });
      const record = view(data[`create${type}`]);
      return { summary: `Saved ${line(record)}`, data: { [one]: record } };
    },
  );

  defineTool(
    server,
    deps,
    `update_${one}`,
    {
      title: `Update a ${one}`,
      description: `Changes the given fields of a ${one} (contributors: their own drafts; authors: their own; editors: any).`,
      input: { ...byId, name: z.string().optional().describe('The new name.'), ...writable },
      output: answer,
      kind: 'write',
      idempotent: true,
    },
    async ({ id, slug, ...input }, { viewer }) => {
      const data = await runAs(
        deps,
        viewer,
        `mutation($id: Int, $slug: String, $input: Update${type}Input!) { update${type}(id: $id, slug: $slug, input: $input) { ${selection} } }`,
        { id, slug, input: defined(input) },
      );
      const record = view(data[`update${type}`]);
      return { summary: `Updated ${line(record)}`, data: { [one]: record } };
    },
  );

  defineTool(
    server,
    deps,
    `delete_${one}`,
    {
      title: `Trash a ${one}`,
      description: `Moves a ${one} to the trash. As in The Events Calendar, the upcoming published events linked to it lose it.`,
      input: byId,
      output: answer,
      kind: 'destructive',
    },
    async ({ id, slug }, { viewer }) => {
      const data = await runAs(deps, viewer, `mutation($id: Int, $slug: String) { delete${type}(id: $id, slug: $slug) { ${selection} } }`, {
        id,
        slug,
      });
      const record = view(data[`delete${type}`]);
      return { summary: `Moved ${line(record)} to the trash.`, data: { [one]: record } };
    },
  );
}

export function registerPlaceTools(server: McpServer, deps: McpDeps): void {
  for (const kind of KINDS) register(server, deps, kind);
}
