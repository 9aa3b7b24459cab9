/** `syncdex catalog [--connector C] [--json]`: connector → entity → actions, id field, searchable fields, source, read plan. */
import { catalog, getConnectorDef } from '../../connectors/catalog/index.js';
import type { ConnectorDef, EntityDef } from '../../connectors/catalog/types.js';
import { output, parse, str } from '../args.js';

function entityJson(e: EntityDef) {
  return {
    actions: e.actions,
    id_field: e.idField,
    searchable: e.searchable ?? null,
    source: e.source,
    fields: e.fields,
    params: e.params ?? null,
    read: e.read === undefined ? null : { action: e.read.action, entity: e.read.entity ?? e.name, paging: e.read.paging, page_size: e.read.pageSize ?? null, incremental: e.read.incremental ?? null, partitions: e.read.partitions ?? [] },
    rules: e.rules ?? [],
  };
}

function connectorJson(def: ConnectorDef) {
  return {
    title: def.title,
    credential_methods: def.credentialMethods.map((m) => ({ name: m.name, fields: m.fields })),
    unavailable_methods: def.unavailableMethods ?? [],
    replication_config: def.replicationConfig,
    entities: Object.fromEntries(Object.values(def.entities).map((e) => [e.name, entityJson(e)])),
  };
}

function human(defs: readonly ConnectorDef[]): string {
  const lines: string[] = [];
  for (const def of defs) {
    const entities = Object.values(def.entities);
    lines.push(`${def.key} — ${def.title}: ${entities.length} entities, ${entities.filter((e) => e.searchable !== undefined).length} searchable`);
    for (const e of entities) {
      const searchable = e.searchable === undefined ? '' : `  search: ${Object.keys(e.searchable).join(', ')}`;
      const inc = e.read?.incremental === undefined ? '' : `  incremental: ${e.read.incremental.param}`;
      lines.push(`  ${e.name.padEnd(24)} [${e.actions.join(',')}]  id=${e.idField}${e.source === 'inferred' ? '  (inferred)' : ''}${inc}${searchable}`);
    }
  }
  return lines.join('\n');
}

export async function catalogCommand(argv: string[]): Promise<number> {
  const p = parse(argv, { connector: { type: 'string' } });
  const key = str(p, 'connector');
  const defs = key === undefined ? Object.values(catalog) : [getConnectorDef(key, 'connector')];
  output(p.values.json as boolean | undefined, Object.fromEntries(defs.map((d) => [d.key, connectorJson(d)])), () => human(defs));
  return 0;
}
