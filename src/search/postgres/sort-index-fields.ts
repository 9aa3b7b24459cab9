/**
 * Which fields of an entity have sort indexes (entity-indexes.ts builds them): its creation and
 * update times, the usual sort and range keys. Pure: the walked `like` page (like-walk.ts) asks it
 * too, since only a sort index lets a page be walked in a field's order.
 */
import type { SearchTarget } from '../dsl/ast.js';

const TIME_FIELD = /^(created|updated|modified)(_at|At|_time|Time|_date|Date)?$/;
const MAX_SORT_FIELDS = 2;

/** Searchable scalar fields worth a sort index: creation/update times. */
export function sortIndexFields(target: SearchTarget): string[] {
  return Object.entries(target.searchable)
    .filter(([name, type]) => TIME_FIELD.test(name) && (type === 'int' || type === 'number' || type === 'string'))
    .map(([name]) => name)
    .slice(0, MAX_SORT_FIELDS);
}
