/**
 * The catalog's vocabulary: pure data describing connector kinds, their entities, record and
 * searchable fields, list parameters, paging and incremental filters. No I/O here.
 */

/** Types a searchable field can have in the search contract (DESIGN §6). */
export type FieldType = 'string' | 'int' | 'number' | 'boolean' | 'object' | 'array';

/** Value formats the sandbox uses to generate realistic data and the planner to format bounds. */
export type FieldFormat =
  | 'id'
  | 'email'
  | 'url'
  | 'phone'
  | 'name'
  | 'first_name'
  | 'last_name'
  | 'company'
  | 'title'
  | 'text'
  | 'currency'
  | 'country'
  | 'timezone'
  | 'unix'
  | 'iso_datetime'
  | 'date'
  | 'color'
  | 'ip';

/** One record field: its type plus optional hints (nullable, enum, format, element/object shape). */
export interface FieldSpec {
  readonly type: FieldType;
  readonly nullable?: boolean;
  readonly enum?: readonly string[];
  readonly format?: FieldFormat;
  /** A constant value (e.g. payments `object: "customer"`). */
  readonly const?: string;
  /** Array element: a scalar type, or an object shape. */
  readonly items?: FieldType | Readonly<Record<string, FieldSpec>>;
  /** Object shape, when known. */
  readonly shape?: Readonly<Record<string, FieldSpec>>;
}

export type ActionName =
  | 'list'
  | 'get'
  | 'create'
  | 'update'
  | 'delete'
  | 'api_search'
  | 'search'
  | 'download';

/** One parameter of a list/api_search action, named exactly as in the entity reference. */
export interface ParamSpec {
  readonly type: 'string' | 'int' | 'boolean' | 'object' | 'array';
  readonly required?: boolean;
  readonly min?: number;
  readonly max?: number;
  readonly default?: string | number | boolean;
  readonly enum?: readonly string[];
  readonly maxLength?: number;
  /**
   * The keys of an `object` param, each a param of its own (payments `created`: `gt`, `gte`, `lt`,
   * `lte`). The planner names them flat (`created.gte`); they go to the runtime nested.
   */
  readonly keys?: Readonly<Record<string, ParamSpec>>;
}

/**
 * How a list action pages. Meta paths are dot paths into the response `meta`
 * (e.g. `pagination.cursor`, `next_page.offset`).
 */
export type PagingSpec =
  /** Next request carries the id of the page's last record (payments `starting_after`). */
  | { readonly style: 'last_id'; readonly param: string; readonly hasMore?: string }
  /** Next request carries a token read from meta; absent/empty/null token ends paging. */
  | {
      readonly style: 'token';
      readonly param: string;
      readonly from: string;
      /** Optional meta boolean: paging ends when it equals `doneWhen`. */
      readonly flag?: { readonly path: string; readonly doneWhen: boolean };
      /**
       * The API always offers a next token (incremental exports): a token equal to the one just
       * sent means the end, not a runaway cursor. Without it such a repeat stops the run as an error.
       */
      readonly endWhenUnchanged?: boolean;
    }
  /** 1-based page numbers; a short page ends paging. */
  | { readonly style: 'page'; readonly param: string; readonly start?: number }
  /** Numeric offset advanced by the page length; `total` meta path when the API reports it. */
  | { readonly style: 'offset'; readonly param: string; readonly total?: string }
  /** A single request returns everything. */
  | { readonly style: 'none' };

/** Page-size parameter: the planner always asks for `max` (the largest allowed page). */
export interface PageSizeSpec {
  readonly param: string;
  readonly max: number;
  readonly default?: number;
}

/** How an incremental run narrows a list call to recently changed records. */
export interface IncrementalSpec {
  /** Parameter receiving the lower bound, e.g. `created.gte`, `modified_since`. */
  readonly param: string;
  /** Record field whose value drives the saved cursor. */
  readonly field: string;
  /** Encoding of both the field and the param value. */
  readonly format: 'unix' | 'iso_datetime' | 'date';
  /** Encoding of the param value when it differs from the field's (live-chat `start_time` is unix, records ISO). */
  readonly paramFormat?: 'unix' | 'iso_datetime' | 'date';
  /**
   * Parameter receiving an exclusive upper bound on the same field (payments `created.lt`), when
   * the list has one: a full run can then split the list into time slices read in parallel.
   */
  readonly upperParam?: string;
}

/**
 * Where the values of a partitioning parameter come from: the connector's replication_config,
 * a fixed list, or the ids of a parent entity's records.
 */
export type PartitionSpec =
  | { readonly kind: 'config'; readonly param: string; readonly configField: string }
  | { readonly kind: 'values'; readonly param: string; readonly values: readonly string[] }
  | {
      readonly kind: 'parent';
      readonly param: string;
      readonly entity: string;
      /** Field of the parent record that becomes the param value (default: parent id field). */
      readonly from?: string;
      /** Format string where `{value}` is replaced by the parent value (issue-tracker JQL per project). */
      readonly template?: string;
      /** Param of an earlier dimension: use only parent records read under that same param value (tables within a base). */
      readonly within?: string;
    };

/**
 * The read path of an entity: which action the worker calls and how it pages. `get` reads one
 * record per partition (ad-platform `ad_account`, one per configured account id); it pages `none`.
 */
export interface ReadSpec {
  readonly action: 'list' | 'api_search' | 'get';
  /** Entity whose action is called when this one has no list of its own (work-management `teams` via `workspace_teams`). */
  readonly entity?: string;
  readonly pageSize?: PageSizeSpec;
  readonly paging: PagingSpec;
  readonly incremental?: IncrementalSpec;
  /** Zero or more partition dimensions (cartesian product), e.g. per account, per base then table. */
  readonly partitions?: readonly PartitionSpec[];
  /** Fixed params every call carries (e.g. a bounded JQL for issue-tracker `issues`). */
  readonly fixedParams?: Readonly<Record<string, string | number | boolean>>;
  /** Dot path of the record list in the runtime's `data` (default: `data` is the list). */
  readonly recordsPath?: string;
}

/** One entity of a connector kind. */
export interface EntityDef {
  readonly name: string;
  readonly actions: readonly ActionName[];
  /** Field that identifies a record (`id`, `gid`, `profileId`, `account_key`, ...). */
  readonly idField: string;
  /** Record fields (what the runtime returns). */
  readonly fields: Readonly<Record<string, FieldSpec>>;
  /** Searchable fields and their types; present for every entity whose actions include `search`. */
  readonly searchable?: Readonly<Record<string, FieldType>>;
  /**
   * Searchable fields the record carries below its top level (field → dotted path in the record,
   * e.g. `projectKey` ← `fields.project.key`): copied up when a record is stored, so filters, sorts
   * and `hits[].data` see them under the searchable name.
   */
  readonly derived?: Readonly<Record<string, string>>;
  /**
   * The vendor's rows carry no id: `idField` is composed from these top-level fields, joined by
   * `separator`, when a record is stored (a record that does carry `idField` keeps its own).
   */
  readonly composedId?: { readonly from: readonly string[]; readonly separator: string };
  /** `reference`: fields as shown in the entity reference; `inferred`: filled in by us. */
  readonly source: 'reference' | 'inferred';
  /** Parameters of the list / api_search action, names as in the reference. */
  readonly params?: Readonly<Record<string, ParamSpec>>;
  /** How the worker replicates it; absent for entities that cannot be listed. */
  readonly read?: ReadSpec;
  /** Human-readable rules from the overview's errors/limits sections that bind this entity. */
  readonly rules?: readonly string[];
}

/** A credential method and its fields (overview §5.2). */
export interface CredentialMethod {
  readonly name: 'oauth' | 'token';
  readonly fields: Readonly<Record<string, { readonly required: boolean }>>;
}

/** A replication_config field of a connector kind (overview §4.1). */
export interface ConfigFieldSpec {
  readonly type: 'string' | 'string_list';
  readonly required: boolean;
  readonly description: string;
  /** A `string` holding comma-separated values (an array is accepted too); normalized to `a,b`. */
  readonly list?: boolean;
  /** Prefix stripped from each value (ad account ids are sent without `act_`). */
  readonly stripPrefix?: string;
  /** Shape the value must have. */
  readonly format?: 'url';
}

/** One connector kind: neutral key, entities, credentials and replication_config shape. */
export interface ConnectorDef {
  readonly key: string;
  readonly title: string;
  readonly entities: Readonly<Record<string, EntityDef>>;
  readonly credentialMethods: readonly CredentialMethod[];
  /** Connector-specific replication_config fields (generic ones are shared). */
  readonly replicationConfig: Readonly<Record<string, ConfigFieldSpec>>;
  /** Methods the reference marks unavailable; refused with a message saying so (drive: `token`). */
  readonly unavailableMethods?: readonly CredentialMethod['name'][];
}
