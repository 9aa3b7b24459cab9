/**
 * What a record gives the Postgres text indexes, from one walk of its searchable fields: `text_lc`
 * for the trigram index (text-index.ts), every string lower-cased as the reference does
 * (String#toLowerCase), one per line; and the same strings beside their paths (object keys from
 * the record down, array levels skipped), from which word-index.ts takes the words; and, for a
 * record whose JSON is not all ASCII, its text shadow (doc.ts), from the same walk.
 * Pure: no client, no SQL execution.
 */
import { shadowOf } from '../doc.js';
import { isAscii, textWords } from '../dsl/text.js';
import { wordGroups, type RecordStrings, type WordGroup } from './word-index.js';

/** A record's search text, its strings with their paths, and (when asked for) its text shadow. */
export interface SearchText {
  readonly text: string;
  readonly strings: RecordStrings;
  /** The record's text shadow (doc.ts `searchableShadow`), when asked for; undefined when it needs none. */
  readonly shadow?: unknown;
}

/**
 * A path of the searchable fields and the paths under it met so far: records of an entity share
 * their path strings instead of building each one per string per record. An object node also
 * remembers the last key order it met and that order sorted: records of one source list their
 * keys alike, so most objects reuse the sorted order instead of sorting their keys again.
 */
interface PathNode {
  readonly path: string;
  readonly children: Map<string, PathNode>;
  keysIn: readonly string[];
  sorted: readonly string[];
  sortedNodes: readonly PathNode[];
}

/** The paths of one searchable set, its fields' nodes, and how many paths it remembers. */
interface PathTree {
  readonly root: PathNode;
  readonly fields: readonly string[];
  readonly fieldNodes: readonly PathNode[];
  size: number;
}

/** Paths remembered per searchable set: past it (free-form keys, such as metadata's), paths are built per record. */
const MAX_PATHS = 10_000;

const trees = new WeakMap<object, PathTree>();

const pathNode = (path: string): PathNode => ({ path, children: new Map(), keysIn: [], sorted: [], sortedNodes: [] });

/** The node of `key` under `node`; under the root (`top`), a field's path is its name. */
function childOf(tree: PathTree, node: PathNode, key: string, top = false): PathNode {
  const known = node.children.get(key);
  if (known !== undefined) return known;
  const child = pathNode(top ? key : `${node.path}.${key}`);
  if (tree.size < MAX_PATHS) {
    node.children.set(key, child);
    tree.size++;
  }
  return child;
}

function treeOf(searchable: Readonly<Record<string, unknown>>): PathTree {
  let tree = trees.get(searchable);
  if (tree === undefined) {
    const partial = { root: pathNode(''), fields: Object.keys(searchable), fieldNodes: [] as PathNode[], size: 0 };
    partial.fieldNodes = partial.fields.map((f) => childOf(partial, partial.root, f, true));
    trees.set(searchable, (tree = partial));
  }
  return tree;
}

/** Whether `value`'s own keys, in order, are `keys` (JSON.parse objects have no inherited enumerable keys). */
function keysAre(value: object, keys: readonly string[]): boolean {
  let i = 0;
  for (const k in value) if (keys[i++] !== k) return false;
  return i === keys.length;
}

/**
 * Keys sorted: jsonb stores objects in its own key order, so a record read back from the store (a
 * reindex) must give the text its sync wrote, or every row would be rewritten for nothing.
 */
function sortedKeys(tree: PathTree, node: PathNode, value: object): void {
  if (keysAre(value, node.keysIn)) return;
  node.keysIn = Object.keys(value);
  node.sorted = [...node.keysIn].sort();
  node.sortedNodes = node.sorted.map((k) => childOf(tree, node, k));
}

interface Walk {
  readonly tree: PathTree;
  readonly paths: string[];
  readonly texts: string[];
  readonly words: (readonly string[] | null)[];
  /** Build the shadow: the record holds a non-ASCII character somewhere. */
  readonly shadow: boolean;
}

/** Walks a value, collecting its strings; returns its shadow (doc.ts textShadow) when the walk builds one. */
function walk(value: unknown, node: PathNode, w: Walk): unknown {
  if (typeof value === 'string') {
    // Lower-cased per string: the same text as lower-casing the joined lines (a line break ends
    // the context of a final sigma); word-index.ts splits words from it.
    const lower = value.toLowerCase();
    w.texts.push(lower);
    w.paths.push(node.path);
    if (isAscii(value)) {
      w.words.push(null);
      return undefined;
    }
    // Split once, for both the words and the shadow (doc.ts stringShadow: lower-casing twice
    // changes nothing, so these are the words of `value` too).
    const words = textWords(lower);
    w.words.push(words);
    return w.shadow ? shadowOf(lower, words) : undefined;
  }
  if (Array.isArray(value)) {
    let items: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const sh = walk(value[i], node, w);
      if (sh !== undefined) (items ??= new Array<unknown>(value.length).fill(null))[i] = sh;
    }
    return items;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  sortedKeys(w.tree, node, value);
  // A node past MAX_PATHS is built per record: its sorted order is its own, never shared.
  const { sorted, sortedNodes } = node;
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < sorted.length; i++) {
    const k = sorted[i] as string;
    const sh = walk((value as Record<string, unknown>)[k], sortedNodes[i] as PathNode, w);
    if (sh !== undefined) (out ??= {})[k] = sh;
  }
  return out;
}

/**
 * The search text and strings of a record's searchable fields; with `shadow` (the record's JSON
 * is not all ASCII), its text shadow from the same walk: the one doc.ts `searchableShadow` gives,
 * its keys in sorted order (jsonb keeps no order).
 */
export function recordSearchText(searchable: Readonly<Record<string, unknown>>, data: Record<string, unknown>, shadow = false): SearchText {
  const tree = treeOf(searchable);
  const w: Walk = { tree, paths: [], texts: [], words: [], shadow };
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < tree.fields.length; i++) {
    const field = tree.fields[i] as string;
    // One lookup, not Object.hasOwn and then the value: an inherited value (a field named like a
    // method of Object.prototype) is a function or Object.prototype itself, whose walk finds no string.
    const value = data[field];
    if (value === undefined) continue;
    const sh = walk(value, tree.fieldNodes[i] as PathNode, w);
    if (sh !== undefined) (out ??= {})[field] = sh;
  }
  const text = w.texts.join('\n');
  const strings: RecordStrings = { paths: w.paths, texts: w.texts, words: w.words };
  return shadow ? { text, strings, shadow: out } : { text, strings };
}

/** `text_lc` of a record. */
export const recordText = (searchable: Readonly<Record<string, unknown>>, data: Record<string, unknown>): string => recordSearchText(searchable, data).text;

/** The words of a record, per string with its path; repeats stay (hashing sorts and drops them). */
export const recordWords = (searchable: Readonly<Record<string, unknown>>, data: Record<string, unknown>): WordGroup[] => wordGroups(recordSearchText(searchable, data).strings);
