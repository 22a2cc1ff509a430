// Which columns of a linked record's row (venue, organizer, term) a GraphQL selection reads, so the
// linked reads (loaders.ts) select only those. Turning a row's values into JS values is most of a
// linked read's cost on SQLite: a 50-event page's venues, organizers and terms took 0.60 ms with
// every column and 0.28 ms with the ones a page of names and cities reads.
//
// Each field says what it reads where it is declared: a `t.expose*` field is its column (Pothos
// records it as `pothosExposedField`); any other field declares `extensions: readsColumns(...)`.
// A field that declares nothing may read anything, so a selection holding one reads every column.
import {
  getNamedType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLResolveInfo,
  type SelectionSetNode,
} from 'graphql';

/** A field's `extensions`: the columns its resolver reads besides the row's always-read ones. */
export const readsColumns = (...columns: string[]) => ({ readsColumns: columns });

/** Every column: a selection holds a field that declares nothing. */
const ALL = null;
/** What a linked read selects from: its table's columns, and those it reads whatever is selected. */
export interface RowColumns {
  table: readonly string[];
  always: readonly string[];
}

/** Columns to read, in the table's order; ALL: every column. */
export type Selected = readonly string[] | typeof ALL;

// Per field node of a document (the same node on every run of it) and read: a read belongs to one
// field of one type (VENUE_READ to Event.venue/venues), so the type the node returns is fixed.
const byNode = new WeakMap<FieldNode, Map<RowColumns, Selected>>();

function fieldColumns(type: GraphQLObjectType, name: string): readonly string[] | typeof ALL {
  if (name === '__typename') return [];
  const extensions = type.getFields()[name]?.extensions as { pothosExposedField?: unknown; readsColumns?: string[] } | undefined;
  if (typeof extensions?.pothosExposedField === 'string') return [extensions.pothosExposedField];
  return extensions?.readsColumns ?? ALL;
}

/**
 * The field nodes of a selection set, inline fragments and named ones followed (each named one
 * once); undefined for a named fragment the document lacks.
 */
function* fieldsOf(
  selectionSet: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
): Generator<FieldNode | undefined> {
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) yield selection;
    else if (selection.kind === Kind.INLINE_FRAGMENT) yield* fieldsOf(selection.selectionSet, fragments, seen);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = fragments[selection.name.value];
      if (fragment) yield* fieldsOf(fragment.selectionSet, fragments, seen);
      else yield undefined;
    }
  }
}

/** Adds the columns a selection set reads to `into`; false when one of its fields may read any. */
function collect(
  type: GraphQLObjectType,
  selectionSet: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
  into: Set<string>,
): boolean {
  // Directives (@skip, @include) are ignored: reading a column more is harmless.
  for (const field of fieldsOf(selectionSet, fragments)) {
    const columns = field ? fieldColumns(type, field.name.value) : ALL;
    if (columns === ALL) return false;
    for (const column of columns) into.add(column);
  }
  return true;
}

function inTableOrder(read: RowColumns, wanted: Set<string>): Selected {
  for (const column of wanted) if (!read.table.includes(column)) return ALL;
  return read.table.filter((column) => wanted.has(column));
}

/** The nodes of the fields named `name` in these nodes' selections (fragments followed). */
function subFieldNodes(nodes: readonly FieldNode[], name: string, fragments: Record<string, FragmentDefinitionNode>): FieldNode[] {
  const found: FieldNode[] = [];
  const seen = new Set<string>();
  for (const node of nodes) {
    for (const field of fieldsOf(node.selectionSet, fragments, seen)) if (field?.name.value === name) found.push(field);
  }
  return found;
}

/**
 * The columns of `read.table` the field being resolved reads of the rows it returns, `read.always`
 * among them, in the table's order; ALL when it may read any (or names one not the table's).
 * `within`: the rows are those of its returned object's field of that name (a page's `items`).
 */
export function selectedColumns(info: GraphQLResolveInfo, read: RowColumns, within?: string): Selected {
  let type = getNamedType(info.returnType);
  let nodes = info.fieldNodes;
  if (within !== undefined) {
    const field = isObjectType(type) ? type.getFields()[within] : undefined;
    if (!field) return ALL;
    type = getNamedType(field.type);
    nodes = subFieldNodes(nodes, within, info.fragments);
  }
  if (!isObjectType(type)) return ALL;
  const rowType = type;
  const columnsOf = (node: FieldNode) => {
    let byRead = byNode.get(node);
    if (!byRead) byNode.set(node, (byRead = new Map()));
    let selected = byRead.get(read);
    if (selected === undefined) {
      const wanted = new Set(read.always);
      selected = collect(rowType, node.selectionSet, info.fragments, wanted) ? inTableOrder(read, wanted) : ALL;
      byRead.set(read, selected);
    }
    return selected;
  };
  // Several nodes under one response key (`venue { name } venue { city }`): what they read together.
  return nodes.length === 1 ? columnsOf(nodes[0]) : unionOfColumns(read, nodes.map(columnsOf));
}

/** What several selections of `read` read together: ALL when one reads ALL; `read.always` at least. */
export function unionOfColumns(read: RowColumns, selections: readonly Selected[]): Selected {
  const first = selections[0];
  if (first !== undefined && selections.every((selected) => selected === first)) return first;
  if (selections.includes(ALL)) return ALL;
  const wanted = new Set(read.always);
  for (const selected of selections) for (const column of selected!) wanted.add(column);
  return inTableOrder(read, wanted);
}

/** A table's read: its columns, and those read whatever is selected. */
export const rowColumns = (columns: Iterable<string>, always: string[]): RowColumns => ({ table: [...columns], always });
