// Category and tag tools: list, get, create, update and delete (for good: terms have no trash). Both
// are taxonomies with the same GraphQL shape, served by the record tools.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { bounded, type McpDeps } from '../tool-kit.js';
import { registerRecordTools, type RecordKind } from './records.js';

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

function recordKind(kind: TermKind): RecordKind {
  const { one, many, type, list, field, writers } = kind;
  return {
    one,
    many,
    type,
    list,
    field,
    selection: `id name slug description count url${kind.hierarchical ? ' parentId' : ''}`,
    output: z.object({
      id: z.number().int(),
      name: z.string(),
      slug: z.string(),
      description: z.string(),
      count: z.number().int().describe('Published events filed under it.'),
      url: z.string(),
      ...(kind.hierarchical ? { parentId: z.number().int().describe('The parent category id (0: top level).') } : {}),
    }),
    view: (record) => ({ ...record, description: bounded(record.description as string) }),
    line: (record) => `#${record.id} ${record.name} (${record.slug}, ${record.count} events)`,
    filters: {
      search: z.string().optional().describe('Only those whose name or slug contains this text.'),
      hideEmpty: z.boolean().default(false).describe('Leave out those without published events.'),
    },
    perPage: 50,
    listDescription: `Event ${many}, by name, with a search and paging (empty ones included unless hideEmpty).`,
    atLeastOnePage: true,
    writeKey: 'id',
    writable: {
      description: z.string().optional().describe('The description.'),
      slug: z.string().optional().describe('The URL slug (default: from the name).'),
      ...(kind.hierarchical ? { parent: z.string().optional().describe('The parent category, by id or slug.') } : {}),
    },
    nameDescription: `The ${one} name (not empty).`,
    create: {
      title: `Create a ${one}`,
      description: `Creates an event ${one} (${writers}).`,
      summary: (line) => `Created ${line}`,
    },
    update: {
      title: `Update a ${one}`,
      description: `Changes the given fields of a ${one} (${writers}).`,
      summary: (line) => `Updated ${line}`,
    },
    delete: {
      title: `Delete a ${one}`,
      description: `Deletes a ${one} for good (terms have no trash); its events lose it${kind.hierarchical ? ', its children move up to its parent' : ''} (${writers}).`,
      summary: (line) => `Deleted ${line} for good.`,
    },
  };
}

export function registerTermTools(server: McpServer, deps: McpDeps): void {
  for (const kind of KINDS) registerRecordTools(server, deps, recordKind(kind));
}
