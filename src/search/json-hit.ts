/**
 * A hit whose document arrived as JSON text. An HTTP answer splices the text (json-projection.ts);
 * only what reads the document parses it, once: an in-process caller's projection, or the
 * cursor's sort values of a page's last hit.
 */
import type { BackendHit } from './backend.js';
import type { SortKey } from './dsl/ast.js';
import { sortValuesOf } from './reference/order.js';

class JsonHit implements BackendHit {
  #doc: Record<string, unknown> | undefined;
  #sortValues: readonly unknown[] | undefined;

  constructor(
    readonly id: string,
    readonly score: number,
    readonly json: string,
    private readonly sort: readonly SortKey[],
  ) {}

  get doc(): Record<string, unknown> {
    return (this.#doc ??= JSON.parse(this.json) as Record<string, unknown>);
  }

  get sortValues(): readonly unknown[] {
    return (this.#sortValues ??= sortValuesOf(this.sort, this));
  }
}

/** A hit of a document read as JSON text, sorted by `sort`. */
export function jsonHit(id: string, score: number, json: string, sort: readonly SortKey[]): BackendHit {
  return new JsonHit(id, score, json, sort);
}
