// Category and tag tools: list, get, create, update and delete (for good: terms have no trash). Both
// are taxonomies with the same GraphQL shape, so one factory makes both.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { bounded, defined, defineTool, runAs, type McpDeps } from '../tool-kit.js';

interface TermKind {
  /** Tool names: category / categories. */
  one: 'category' | 'tag';
  many: 'categories' | 'tags';
  /** GraphQL names: the type, its list and its one-record field. */
  type: 'EventCategory' | 'Tag';
  list: 'eventCategories' | 'tags';
  field: 'eventCategory' | 'tag';
  hierarchical: boolean;
  /** Who may write it, as the mutations decide (for the description). */
  writers: string;
}

const KINDS: TermKind[] = [
  {
    one: 'category',
    many: 'categories',
    type: 'EventCategory',
    list: 'eventCategories',
    field: 'eventCategory',
    hierarchical: true,
    writers: 'authors, editors and administrators',
  },
  { one: 'tag', many: 'tags', type: 'Tag', list: 'tags', field: 'tag', hierarchical: false, writers: 'editors and administrators' },
];

function register(server: McpServer, deps: McpDeps, kind: TermKind): void {
  const { one, many, type } = kind;
  const selection = `id name slug description count url${kind.hierarchical ? ' parentId' : ''}`;
  const output = z.object({
    id: z.number().int(),
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    count: z.number().int().describe('Published events filed under it.'),
    url: z.string(),
    ...(kind.hierarchical ? { parentId: z.number().int().describe('The parent category id (0: top level).') } : {}),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the shape of `selection`, as GraphQL answers it
  const view = (record: any) => ({ ...record, description: bounded(record.description) });
  const line = (record: { id: number; name: string; slug: string; count: number }) =>
    `#${record.id} ${record.name} (${record.slug}, ${record.count} events)`;
  const writable = {
    description: z.string().optional().describe('The description.'),
    slug: z.string().optional().describe('The URL slug (default: from the name).'),
    ...(kind.hierarchical ? { parent: z.string().optional().describe('The parent category, by id or slug.') } : {}),
  };
  const answer = { [one]: output };
  const byId = { id: z.number().int().describe(`The ${one} id.`) };

  defineTool(
    server,
    deps,
    `list_${many}`,
    {
      title: `List ${many}`,
      description: `Event ${many}, by name, with a search and paging (empty ones included unless hideEmpty).`,
      input: {
        search: z.string().optional().describe('Only those whose name or slug contains this text.'),
        hideEmpty: z.boolean().default(false).describe('Leave out those without published events.'),
        page: z.number().int().min(1).default(1).describe('The page, from 1.'),
        perPage: z.number().int().min(1).max(50).default(50).describe('Items per page (1–50).'),
      },
      output: { [many]: z.array(output), total: z.number().int(), page: z.number().int(), totalPages: z.number().int() },
      kind: 'read',
    },
    async ({ page, perPage, ...filter }, { viewer }) => {
      const data = await runAs(
        deps,
        viewer,
        `query($filter: ${type}Filter, $page: PageInput) { ${kind.list}(filter: $filter, page: $page) { total totalPages page items { ${selection} } } }`,
        { filter: defined(filter), page: { page, perPage } },
      );
      const result = data[kind.list];
      const items = result.items.map(view);
      return {
        summary: `${result.total} ${many}; page ${result.page} of ${Math.max(result.totalPages, 1)}.\n${items.map(line).join('\n')}`,
        data: { [many]: items, total: result.total, page: result.page, totalPages: result.totalPages },
      };
    },
  );

  defineTool(
    server,
    deps,
    `get_${one}`,
    {
      title: `Get a ${one}`,
      description: `One ${one} by id or slug.`,
      input: { id: byId.id.optional(), slug: z.string().optional().describe(`The ${one} slug (when no id).`) },
      output: answer,
      kind: 'read',
    },
    async ({ id, slug }, { viewer }) => {
      const data = await runAs(deps, viewer, `query($id: Int, $slug: String) { ${kind.field}(id: $id, slug: $slug) { ${selection} } }`, {
        id,
        slug,
      });
      const record = view(data[kind.field]);
      return { summary: line(record), data: { [one]: record } };
    },
  );

  defineTool(
    server,
    deps,
    `create_${one}`,
    {
      title: `Create a ${one}`,
      description: `Creates an event ${one} (${kind.writers}).`,
      input: { name: z.string().describe(`The ${one} name (not empty).`), ...writable },
      output: answer,
      kind: 'write',
    },
    async (input, { viewer }) => {
      const data = await runAs(deps, viewer, `mutation($input: Create${type}Input!) { create${type}(input: $input) { ${selection} } }`, {
        input: defined(input),
      });
      const record = view(data[`create${type}`]);
      return { summary: `Created ${line(record)}`, data: { [one]: record } };
    },
  );

  defineTool(
    server,
    deps,
    `update_${one}`,
    {
      title: `Update a ${one}`,
      description: `Changes the given fields of a ${one} (${kind.writers}).`,
      input: { ...byId, name: z.string().optional().describe('The new name.'), ...writable },
      output: answer,
      kind: 'write',
      idempotent: true,
    },
    async ({ id, ...input }, { viewer }) => {
      const data = await runAs(
        deps,
        viewer,
        `mutation($id: Int!, $input: Update${type}Input!) { update${type}(id: $id, input: $input) { ${selection} } }`,
        { id, input: defined(input) },
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
      title: `Delete a ${one}`,
      description: `Deletes a ${one} for good (terms have no trash); its events lose it${kind.hierarchical ? ', its children move up to its parent' : ''} (${kind.writers}).`,
      input: byId,
      output: answer,
      kind: 'destructive',
    },
    async ({ id }, { viewer }) => {
      const data = await runAs(deps, viewer, `mutation($id: Int!) { delete${type}(id: $id) { ${selection} } }`, { id });
      const record = view(data[`delete${type}`]);
      return { summary: `Deleted ${line(record)} for good.`, data: { [one]: record } };
    },
  );
}

export function registerTermTools(server: McpServer, deps: McpDeps): void {
  for (const kind of KINDS) register(server, deps, kind);
}
