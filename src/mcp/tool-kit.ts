// What every MCP tool is made of: one GraphQL operation (or a few) run in-process as the caller,
// exactly as the REST layer runs them, so that a tool may do what the same key may do through
// GraphQL and nothing else; its answer as structuredContent with a short text summary; its failure
// as a tool error (isError) naming the field and the reason; and one log line per call.
import type { McpServer, ToolCallback } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { CallToolResult, ServerNotification, ServerRequest, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { GraphQLError } from 'graphql';
import type { z } from 'zod';
import type { Viewer } from '../auth/viewer.js';
import type { GraphQLContext } from '../graphql/context.js';
import type { GraphQLData, OperationRunner } from '../graphql/execute.js';
import type { Logger } from '../http/logger.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What the MCP server needs of the app: the in-process runner and a context for a caller. */
export interface McpDeps {
  runner: OperationRunner;
  context: (viewer: Viewer | null) => GraphQLContext;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** The site's IANA time zone (current_datetime) and its public address (resources). */
  siteTimezone: string;
  siteUrl: string;
}

/** A tool's refusal: its text names the GraphQL code, the fields and their reasons. */
export class ToolFailure extends Error {}

/** The caller of this MCP request, as the HTTP transport authenticated it (src/mcp/http.ts). */
export function viewerOf(extra: Pick<ToolExtra, 'authInfo'>): Viewer | null {
  return (extra.authInfo?.extra?.viewer as Viewer | undefined) ?? null;
}

/** Runs one GraphQL operation as the caller; GraphQL's errors become a ToolFailure. */
export async function runAs(
  deps: McpDeps,
  viewer: Viewer | null,
  source: string,
  variables: Record<string, unknown>,
): Promise<GraphQLData> {
  const result = await deps.runner(source, variables, deps.context(viewer));
  if (result.errors?.length) throw new ToolFailure(result.errors.map(describeError).join('\n'));
  return result.data;
}

function describeError(error: GraphQLError): string {
  const code = typeof error.extensions?.code === 'string' ? error.extensions.code : 'ERROR';
  const params = error.extensions?.params as Record<string, unknown> | undefined;
  const reasons =
    params && typeof params === 'object' ? Object.entries(params).map(([field, reason]) => `${field}: ${String(reason)}`) : [];
  return [`${code}: ${error.message}`, ...reasons].join('\n');
}

/** Long text cut to `max` characters, with a note that says so (outputs stay bounded). */
export function bounded(text: string | null | undefined, max = 2000): string {
  if (!text || text.length <= max) return text ?? '';
  return `${text.slice(0, max)}… [cut: ${text.length - max} more characters]`;
}

/** Leaves out the undefined members (GraphQL input objects: absent, not null). */
export function defined<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as Partial<T>;
}

export interface ToolAnswer {
  summary: string;
  data: Record<string, unknown>;
}

type Shape = z.ZodRawShape;

export interface ToolSpec<I extends Shape, O extends Shape> {
  title: string;
  description: string;
  input: I;
  output: O;
  /** readOnly: changes nothing; destructive: removes or trashes something. */
  kind: 'read' | 'write' | 'destructive';
  /** Only a name to identify the record (an idempotent write: an update to the same values). */
  idempotent?: boolean;
}

export type ToolHandler<I extends Shape> = (
  args: z.infer<z.ZodObject<I>>,
  call: { viewer: Viewer | null; extra: ToolExtra },
) => Promise<ToolAnswer>;

/** Argument names whose values never reach the log. */
const SECRET_ARGUMENTS = new Set(['secrets', 'password', 'headers', 'input', 'apiKey', 'key']);

function loggable(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(args ?? {}).map(([name, value]) => {
      if (!SECRET_ARGUMENTS.has(name)) return [name, typeof value === 'string' ? bounded(value, 200) : value];
      // Secrets by name only: which ones were given, never their values.
      return [name, name === 'secrets' && value && typeof value === 'object' ? Object.keys(value) : '[redacted]'];
    }),
  );
}

/** Registers a tool whose handler runs as the caller, with its answer and failures shaped alike. */
export function defineTool<I extends Shape, O extends Shape>(
  server: McpServer,
  deps: McpDeps,
  name: string,
  spec: ToolSpec<I, O>,
  handler: ToolHandler<I>,
): void {
  const annotations: ToolAnnotations = {
    title: spec.title,
    readOnlyHint: spec.kind === 'read',
    destructiveHint: spec.kind === 'destructive',
    idempotentHint: spec.kind === 'read' || spec.idempotent === true,
    openWorldHint: false,
  };
  const callback = (async (args: z.infer<z.ZodObject<I>>, extra: ToolExtra): Promise<CallToolResult> => {
    const started = process.hrtime.bigint();
    const viewer = viewerOf(extra);
    let failed: string | undefined;
    try {
      const answer = await handler(args, { viewer, extra });
      return { content: [{ type: 'text', text: answer.summary }], structuredContent: answer.data };
    } catch (error) {
      if (!(error instanceof ToolFailure)) deps.logger.error({ err: error, tool: name }, 'mcp tool failed');
      failed = error instanceof ToolFailure ? error.message : 'Internal error: the tool failed; the server log has the details.';
      return { content: [{ type: 'text', text: failed }], isError: true };
    } finally {
      deps.logger.info({
        requestId: extra.authInfo?.extra?.requestId,
        mcp: { tool: name, sessionId: extra.sessionId, rpcId: extra.requestId },
        userId: viewer?.userId ?? null,
        args: loggable(args as Record<string, unknown>),
        isError: failed !== undefined,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      });
    }
  }) as unknown as ToolCallback<I>;
  server.registerTool(
    name,
    { title: spec.title, description: spec.description, inputSchema: spec.input, outputSchema: spec.output, annotations },
    callback,
  );
}
