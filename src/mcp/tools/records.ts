// The five tools of a calendar record kind that GraphQL serves with one shape: list (filter, page),
// get (id or slug), create, update and delete. Venues and organizers (src/mcp/tools/places.ts) and
// categories and tags (src/mcp/tools/terms.ts) are such kinds; each says only what differs: its
// names, fields, filters, how a record is keyed for a write and its words.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { defined, defineTool, runAs, type McpDeps } from '../tool-kit.js';

/** What a write tool says about itself: its title, its description and its summary of one record. */
interface ToolWords {
  title: string;
  description: string;
  /** The summary, around the record's line: "Saved #3 …", "Moved #3 … to the trash." */
  summary: (line: string) => string;
}

/** A record as the tools show it; the kind's `view` makes it from GraphQL's answer to `selection`. */
type RecordView = Record<string, unknown>;

export interface RecordKind {
  /** Tool names: venue / venues, category / categories. */
  one: string;
  many: string;
  /** GraphQL names: the type (VenueFilter, createVenue…), its list and its one-record field. */
  type: string;
  list: string;
  field: string;
  /** The fields each tool selects, and what the tools answer for one record. */
  selection: string;
  output: z.ZodObject<z.ZodRawShape>;
  view: (record: Record<string, unknown>) => RecordView;
  /** One record as a line of a summary. */
  line: (record: RecordView) => string;
  /** The list's filters (page and perPage are added), its default page size and description. */
  filters: z.ZodRawShape;
  perPage: number;
  listDescription: string;
  /** An empty list reads "page 1 of 1" (terms) rather than "page 1 of 0" (linked posts). */
  atLeastOnePage: boolean;
  /** How update and delete name the record: by id or slug (linked posts), or by id alone (terms). */
  writeKey: 'id-or-slug' | 'id';
  /** The fields create and update write, beyond the name; the create tool's words for the name. */
  writable: z.ZodRawShape;
  nameDescription: string;
  create: ToolWords;
  update: ToolWords;
  delete: ToolWords;
}

/** Registers the five tools of one record kind. */
export function registerRecordTools(server: McpServer, deps: McpDeps, kind: RecordKind): void {
  const { one, many, type, selection, view, line } = kind;
  const answer = { [one]: kind.output };
  const id = z.number().int().describe(`The ${one} id.`);
  const slug = z.string().optional().describe(`The ${one} slug (when no id).`);
  const byIdOrSlug =
    kind.writeKey === 'id-or-slug' ? { id: z.number().int().optional().describe(`The ${one} id.`), slug } : { id: id.optional(), slug };
  const key =
    kind.writeKey === 'id-or-slug'
      ? { input: byIdOrSlug, variables: '$id: Int, $slug: String', args: 'id: $id, slug: $slug' }
      : { input: { id }, variables: '$id: Int!', args: 'id: $id' };
  const keyOf = ({ id, slug }: { id?: number; slug?: string }) => (kind.writeKey === 'id-or-slug' ? { id, slug } : { id });

  defineTool(
    server,
    deps,
    `list_${many}`,
    {
      title: `List ${many}`,
      description: kind.listDescription,
      input: {
        ...kind.filters,
        page: z.number().int().min(1).default(1).describe('The page, from 1.'),
        perPage: z.number().int().min(1).max(50).default(kind.perPage).describe('Items per page (1–50).'),
      },
      output: { [many]: z.array(kind.output), total: z.number().int(), page: z.number().int(), totalPages: z.number().int() },
      kind: 'read',
    },
    async ({ page, perPage, ...filter }, { viewer }) => {
      const data = await runAs(
        deps,
        viewer,
        `query($filter: ${type}Filter, $page: PageInput) { ${kind.list}(filter: $filter, page: $page) { total totalPages page items { ${selection} } } }`,
        { filter: defined(filter), page: { page, perPage } },
      );
      const result = data[kind.list] as { total: number; totalPages: number; page: number; items: Record<string, unknown>[] };
      const items = result.items.map(view);
      const pages = kind.atLeastOnePage ? Math.max(result.totalPages, 1) : result.totalPages;
      return {
        summary: `${result.total} ${many}; page ${result.page} of ${pages}.\n${items.map(line).join('\n')}`,
        data: { [many]: items, total: result.total, page: result.page, totalPages: result.totalPages },
      };
    },
  );

  defineTool(
    server,
    deps,
    `get_${one}`,
    { title: `Get a ${one}`, description: `One ${one} by id or slug.`, input: byIdOrSlug, output: answer, kind: 'read' },
    async ({ id, slug }, { viewer }) => {
      const data = await runAs(deps, viewer, `query($id: Int, $slug: String) { ${kind.field}(id: $id, slug: $slug) { ${selection} } }`, {
        id,
        slug,
      });
      const record = view(data[kind.field] as Record<string, unknown>);
      return { summary: line(record), data: { [one]: record } };
    },
  );

  defineTool(
    server,
    deps,
    `create_${one}`,
    {
      title: kind.create.title,
      description: kind.create.description,
      input: { name: z.string().describe(kind.nameDescription), ...kind.writable },
      output: answer,
      kind: 'write',
    },
    async (input, { viewer }) => {
      const data = await runAs(deps, viewer, `mutation($input: Create${type}Input!) { create${type}(input: $input) { ${selection} } }`, {
        input: defined(input),
      });
      const record = view(data[`create${type}`] as Record<string, unknown>);
      return { summary: kind.create.summary(line(record)), data: { [one]: record } };
    },
  );

  defineTool(
    server,
    deps,
    `update_${one}`,
    {
      title: kind.update.title,
      description: kind.update.description,
      input: { ...key.input, name: z.string().optional().describe('The new name.'), ...kind.writable },
      output: answer,
      kind: 'write',
      idempotent: true,
    },
    async (args, { viewer }) => {
      const { id, slug, ...input } = args as { id?: number; slug?: string } & Record<string, unknown>;
      // A term's slug is a field it writes, not its key: it stays in the input.
      const fields = kind.writeKey === 'id' && slug !== undefined ? { ...input, slug } : input;
      const data = await runAs(
        deps,
        viewer,
        `mutation(${key.variables}, $input: Update${type}Input!) { update${type}(${key.args}, input: $input) { ${selection} } }`,
        { ...keyOf({ id, slug }), input: defined(fields) },
      );
      const record = view(data[`update${type}`] as Record<string, unknown>);
      return { summary: kind.update.summary(line(record)), data: { [one]: record } };
    },
  );

  defineTool(
    server,
    deps,
    `delete_${one}`,
    { title: kind.delete.title, description: kind.delete.description, input: key.input, output: answer, kind: 'destructive' },
    async (args, { viewer }) => {
      const data = await runAs(deps, viewer, `mutation(${key.variables}) { delete${type}(${key.args}) { ${selection} } }`, {
        ...keyOf(args as { id?: number; slug?: string }),
      });
      const record = view(data[`delete${type}`] as Record<string, unknown>);
      return { summary: kind.delete.summary(line(record)), data: { [one]: record } };
    },
  );
}
