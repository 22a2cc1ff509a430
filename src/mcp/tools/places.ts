// Venue and organizer tools: list, get, create, update and trash. The two are "linked posts" with
// the same GraphQL shape (venues(filter), venue(id|slug), createVenue…), served by the record tools.
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { bounded, type McpDeps } from '../tool-kit.js';
import { registerRecordTools, type RecordKind } from './records.js';

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

function recordKind(kind: LinkedKind): RecordKind {
  const { one, many, type } = kind;
  const own = { ...kind.fields, ...COMMON_FIELDS };
  return {
    one,
    many,
    type,
    list: many,
    field: one,
    selection: `id name slug status url description ${Object.keys(own).join(' ')}`,
    output: z.object({
      id: z.number().int(),
      name: z.string(),
      slug: z.string(),
      status: z.string(),
      url: z.string(),
      description: z.string().describe('Cut at 2,000 characters, with a note saying so.'),
      ...Object.fromEntries(Object.entries(own).map(([name, what]) => [name, z.string().describe(what)])),
    }),
    view: (record) => ({ ...record, status: String(record.status).toLowerCase(), description: bounded(record.description as string) }),
    line: (record) => `#${record.id} ${record.name} [${record.status}]`,
    filters: {
      search: z.string().optional().describe(`Text that one field of the ${one} must contain (name, description, address…).`),
      status: z.array(z.string()).optional().describe('Statuses to list; only those who can edit may ask for more than publish.'),
      onlyWithUpcoming: z.boolean().optional().describe(`Only ${many} with an upcoming event.`),
    },
    perPage: 20,
    listDescription: `${type}s the caller may see, newest first, with a search and paging.`,
    atLeastOnePage: false,
    writeKey: 'id-or-slug',
    writable: {
      description: z.string().optional().describe('Description (HTML allowed).'),
      status: z.string().optional().describe('publish, draft, pending or private; roles that cannot publish get pending/draft.'),
      ...Object.fromEntries(Object.entries(own).map(([name, what]) => [name, z.string().optional().describe(`${what} "" clears.`)])),
    },
    nameDescription: `The ${one}'s name (not empty).`,
    create: {
      title: `Create a ${one}`,
      description: `Creates a ${one} (contributors and up), or reuses an existing one of the same name.`,
      summary: (line) => `Saved ${line}`,
    },
    update: {
      title: `Update a ${one}`,
      description: `Changes the given fields of a ${one} (contributors: their own drafts; authors: their own; editors: any).`,
      summary: (line) => `Updated ${line}`,
    },
    delete: {
      title: `Trash a ${one}`,
      description: `Moves a ${one} to the trash. As in The Events Calendar, the upcoming published events linked to it lose it.`,
      summary: (line) => `Moved ${line} to the trash.`,
    },
  };
}

export function registerPlaceTools(server: McpServer, deps: McpDeps): void {
  for (const kind of KINDS) registerRecordTools(server, deps, recordKind(kind));
}
