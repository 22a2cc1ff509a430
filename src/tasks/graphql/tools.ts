// Saved tool definitions in GraphQL: the savedTools query (built-in definitions, then the caller's)
// and the mutations that save, change and delete the caller's own.
import { builder } from '../../graphql/builder.js';
import { deleteSavedTool, listSavedTools, MAX_SAVED_TOOLS, saveTool, updateSavedTool, type SavedToolView } from '../saved-tools.js';
import { ownerOf } from './resolve.js';

const SavedTool = builder.objectRef<SavedToolView>('SavedTool').implement({
  description:
    "A caller-tool definition to pick for new tasks: built in (form_input, offered to everyone) or saved by the caller. Pass `definition` in createTask's `tools`.",
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The id (`builtin:<name>` for a built-in definition).' }),
    name: t.exposeString('name', { description: 'The function name (definition.function.name).' }),
    builtIn: t.exposeBoolean('builtIn', { description: 'Offered by Almanac; it cannot be changed or deleted.' }),
    definition: t.field({
      type: 'JSON',
      description: 'The OpenAI-style function tool: {type: "function", function: {name, description?, parameters?}}.',
      resolve: (tool) => tool.definition,
    }),
    createdAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When it was saved (null: built in).',
      resolve: (tool) => tool.createdAt,
    }),
    updatedAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When it last changed (null: built in).',
      resolve: (tool) => tool.updatedAt,
    }),
  }),
});

const RULES =
  "The definition follows the rules of createTask's `tools` items (INVALID_INPUT naming the field otherwise) and may not take a built-in definition's name.";

builder.queryFields((t) => ({
  savedTools: t.field({
    type: [SavedTool],
    description: "The tool definitions the caller may pick for a new task: the built-in ones first, then the caller's saved ones by name.",
    resolve: (_root, _args, ctx) => listSavedTools(ctx.prisma, ownerOf(ctx)),
  }),
}));

builder.mutationFields((t) => ({
  saveTool: t.field({
    type: SavedTool,
    description: `Saves a tool definition for the caller (at most ${MAX_SAVED_TOOLS}). ${RULES} Errors: INVALID_INPUT, CONFLICT (the caller already has one of that name), RATE_LIMITED (too many).`,
    args: { tool: t.arg({ type: 'JSON', required: true, description: 'The OpenAI-style function tool.' }) },
    resolve: (_root, args, ctx) => saveTool(ctx.prisma, ownerOf(ctx), args.tool),
  }),
  updateSavedTool: t.field({
    type: SavedTool,
    description: `Replaces one of the caller's saved definitions (its name may change). ${RULES} Errors: INVALID_INPUT (also for a built-in one), NOT_FOUND (no such definition of the caller's), CONFLICT.`,
    args: {
      id: t.arg.id({ required: true, description: 'The saved definition.' }),
      tool: t.arg({ type: 'JSON', required: true, description: 'The new OpenAI-style function tool.' }),
    },
    resolve: (_root, args, ctx) => updateSavedTool(ctx.prisma, ownerOf(ctx), String(args.id), args.tool),
  }),
  deleteSavedTool: t.field({
    type: SavedTool,
    description:
      "Deletes one of the caller's saved definitions and answers it; tasks created with it keep their copy. Errors: INVALID_INPUT (a built-in one), NOT_FOUND.",
    args: { id: t.arg.id({ required: true, description: 'The saved definition.' }) },
    resolve: (_root, args, ctx) => deleteSavedTool(ctx.prisma, ownerOf(ctx), String(args.id)),
  }),
}));
