/**
 * What a record gives the Postgres text indexes, from one walk of its searchable fields: `text_lc`
 * for the trigram index (text-index.ts), every string lower-cased as the reference does
 * (String#toLowerCase), one per line; and the same strings beside their paths (object keys from
 * the record down, array levels skipped), from which word-index.ts takes the words.
 * Pure: no client, no SQL execution.
 */
import { wordGroups, type RecordStrings, type WordGroup } from './word-index.js';

/** A record's search text and its strings with their paths. */
export interface SearchText {
  readonly text: string;
  readonly strings: RecordStrings;
}

/**
 * A path of the searchable fields and the paths under it met so far: records of an entity share
 * their path strings instead of building each one per string per record.
 */
interface PathNode {
  readonly path: string;
  readonly children: Map<string, PathNode>;
}

/** The paths of one searchable set, and how many it remembers. */
interface PathTree {
  readonly root: PathNode;
  size: number;
}

/** Paths remembered per searchable set: past it (free-form keys, such as metadata's), paths are built per record. */
const MAX_PATHS = 10_000;

const trees = new WeakMap<object, PathTree>();

/** The node of `key` under `node`; under the root (`top`), a field's path is its name. */
function childOf(tree: PathTree, node: PathNode, key: string, top = false): PathNode {
  const known = node.children.get(key);
  if (known !== undefined) return known;
  const child: PathNode = { path: top ? key : `${node.path}.${key}`, children: new Map() };
  if (tree.size < MAX_PATHS) {
    node.children.set(key, child);
    tree.size++;
  }
  return child;
}

interface Walk {
  readonly tree: PathTree;
  readonly paths: string[];
  readonly texts: string[];
}

function walk(value: unknown, node: PathNode, w: Walk): void {
  if (typeof value === 'string') {
    // Lower-cased per string: the same text as lower-casing the joined lines (a line break ends
    // the context of a final sigma); word-index.ts splits words from it.
    w.texts.push(value.toLowerCase());
    w.paths.push(node.path);
  } else if (Array.isArray(value)) {
    for (const v of value) walk(v, node, w);
  } else if (typeof value === 'object' && value !== null) {
    // Keys sorted: jsonb stores objects in its own key order, so a record read back from the store
    // (a reindex) must give the text its sync wrote, or every row would be rewritten for nothing.
    for (const k of Object.keys(value).sort()) walk((value as Record<string, unknown>)[k], childOf(w.tree, node, k), w);
  }
}

/** The search text and strings of a record's searchable fields. */
export function recordSearchText(searchable: Readonly<Record<string, unknown>>, data: Record<string, unknown>): SearchText {
  let tree = trees.get(searchable);
  if (tree === undefined) trees.set(searchable, (tree = { root: { path: '', children: new Map() }, size: 0 }));
  const w: Walk = { tree, paths: [], texts: [] };
  for (const field of Object.keys(searchable)) if (Object.hasOwn(data, field)) walk(data[field], childOf(tree, tree.root, field, true), w);
  return { text: w.texts.join('\n'), strings: { paths: w.paths, texts: w.texts } };
}

/** `text_lc` of a record. */
export const recordText = (searchable: Readonly<Record<string, unknown>>, data: Record<string, unknown>): string => recordSearchText(searchable, data).text;

/** The words of a record, per string with its path; repeats stay (hashing sorts and drops them). */
export const recordWords = (searchable: Readonly<Record<string, unknown>>, data: Record<string, unknown>): WordGroup[] => wordGroups(recordSearchText(searchable, data).strings);
