// Saved tool definitions: caller tools (OpenAI-style function tools) a user keeps by name to pick
// for new tasks, next to the definitions Almanac offers built in (the product brief's form_input).
// A saved definition obeys the rules of create's `tools[]` (the same validation); each user sees
// and changes only their own, and another user's definition does not exist for the caller.
import { randomUUID } from 'node:crypto';
import type { Prisma } from '../db/client.js';
import { isUniqueViolation } from '../db/errors.js';
import type { FunctionTool } from './actions.js';
import { TaskError } from './errors.js';
import type { Owner } from './tasks.js';
import { validateTool } from './validation.js';

/** How many definitions one user may save. */
export const MAX_SAVED_TOOLS = 100;

/** The caller tool of the product brief: a form that asks the user for information (fields may carry `options`). */
export const FORM_INPUT_TOOL = {
  type: 'function',
  function: {
    name: 'form_input',
    description: 'Ask the user for information',
    parameters: {
      type: 'object',
      properties: {
        heading: { type: 'string', description: 'Heading of the form' },
        description: { type: 'string', description: 'Description of the form' },
        fields: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              type: { type: 'string', description: 'Input field type' },
              label: { type: 'string', description: 'Label text' },
              options: { type: 'array', items: { type: 'string' }, description: 'Choices, for a select field' },
            },
          },
        },
      },
    },
  },
} as const satisfies FunctionTool;

/** The definitions every user is offered; they cannot be changed, and their names cannot be saved. */
export const BUILT_IN_TOOLS: readonly FunctionTool[] = [FORM_INPUT_TOOL as unknown as FunctionTool];

export interface SavedToolView {
  /** `builtin:<name>` for a built-in definition. */
  id: string;
  name: string;
  builtIn: boolean;
  definition: FunctionTool;
  createdAt: Date | null;
  updatedAt: Date | null;
}

const BUILT_IN_PREFIX = 'builtin:';

const builtInViews = (): SavedToolView[] =>
  BUILT_IN_TOOLS.map((tool) => ({
    id: `${BUILT_IN_PREFIX}${tool.function.name}`,
    name: tool.function.name,
    builtIn: true,
    definition: tool,
    createdAt: null,
    updatedAt: null,
  }));

type Row = { id: string; name: string; definition: string; createdAt: Date; updatedAt: Date };
const view = (row: Row): SavedToolView => ({
  id: row.id,
  name: row.name,
  builtIn: false,
  definition: JSON.parse(row.definition) as FunctionTool,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** The built-in definitions, then the owner's saved ones by name. */
export async function listSavedTools(prisma: Prisma, owner: Owner): Promise<SavedToolView[]> {
  const rows = await prisma.savedTool.findMany({ where: { ownerId: owner.userId }, orderBy: [{ name: 'asc' }, { id: 'asc' }] });
  return [...builtInViews(), ...rows.map(view)];
}

/** The definition checked as create checks `tools[]` items, and not named like a built-in one. */
function checkDefinition(definition: unknown): FunctionTool {
  const tool = validateTool(definition, 'tool');
  if (BUILT_IN_TOOLS.some((builtIn) => builtIn.function.name === tool.function.name)) {
    throw new TaskError(
      'invalid',
      `tool.function.name must not be "${tool.function.name}": that definition is built in (pick it from the list instead)`,
      'tool.function.name',
    );
  }
  return tool;
}

const nameTaken = (name: string) =>
  new TaskError('conflict', `You already have a saved tool named "${name}"; change that one or choose another name.`);

/** Saves a new definition for the owner. CONFLICT when they already have one of that name. */
export async function saveTool(prisma: Prisma, owner: Owner, definition: unknown): Promise<SavedToolView> {
  const tool = checkDefinition(definition);
  const count = await prisma.savedTool.count({ where: { ownerId: owner.userId } });
  if (count >= MAX_SAVED_TOOLS)
    throw new TaskError('limit', `You have ${count} saved tools, the most allowed (${MAX_SAVED_TOOLS}); delete one first.`);
  if (await prisma.savedTool.findFirst({ where: { ownerId: owner.userId, name: tool.function.name }, select: { id: true } }))
    throw nameTaken(tool.function.name);
  try {
    return view(
      await prisma.savedTool.create({
        data: { id: randomUUID(), ownerId: owner.userId, name: tool.function.name, definition: JSON.stringify(tool) },
      }),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(tool.function.name);
    throw error;
  }
}

/** The owner's saved definition `id`; built-in ones cannot be changed, another user's do not exist. */
async function ownTool(prisma: Prisma, owner: Owner, id: string) {
  if (id.startsWith(BUILT_IN_PREFIX))
    throw new TaskError('invalid', `The built-in tool "${id.slice(BUILT_IN_PREFIX.length)}" cannot be changed.`, 'id');
  const row = await prisma.savedTool.findFirst({ where: { id, ownerId: owner.userId } });
  if (!row) throw new TaskError('not_found', `No saved tool with id "${id}".`);
  return row;
}

/** Replaces the owner's definition `id` (its name may change). */
export async function updateSavedTool(prisma: Prisma, owner: Owner, id: string, definition: unknown): Promise<SavedToolView> {
  const tool = checkDefinition(definition);
  await ownTool(prisma, owner, id);
  if (await prisma.savedTool.findFirst({ where: { ownerId: owner.userId, name: tool.function.name, NOT: { id } }, select: { id: true } }))
    throw nameTaken(tool.function.name);
  try {
    // Scoped to the owner again in the write itself.
    const { count } = await prisma.savedTool.updateMany({
      where: { id, ownerId: owner.userId },
      data: { name: tool.function.name, definition: JSON.stringify(tool) },
    });
    if (count !== 1) throw new TaskError('not_found', `No saved tool with id "${id}".`);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(tool.function.name);
    throw error;
  }
  return view(await ownTool(prisma, owner, id));
}

/** Deletes the owner's definition `id`; tasks that used it keep their copy. */
export async function deleteSavedTool(prisma: Prisma, owner: Owner, id: string): Promise<SavedToolView> {
  const row = await ownTool(prisma, owner, id);
  const { count } = await prisma.savedTool.deleteMany({ where: { id, ownerId: owner.userId } });
  if (count !== 1) throw new TaskError('not_found', `No saved tool with id "${id}".`);
  return view(row);
}
