import type { FieldFormat, FieldSpec, FieldType } from './types.js';

type Opts = Omit<FieldSpec, 'type'>;

/** Terse field builders for catalog modules: `f.str({ format: 'email' })`, `f.strN()` (nullable). */
export const f = {
  str: (o: Opts = {}): FieldSpec => ({ type: 'string', ...o }),
  strN: (o: Opts = {}): FieldSpec => ({ type: 'string', nullable: true, ...o }),
  fmt: (format: FieldFormat, nullable = false): FieldSpec => ({ type: 'string', format, nullable }),
  int: (o: Opts = {}): FieldSpec => ({ type: 'int', ...o }),
  intN: (o: Opts = {}): FieldSpec => ({ type: 'int', nullable: true, ...o }),
  num: (o: Opts = {}): FieldSpec => ({ type: 'number', ...o }),
  numN: (o: Opts = {}): FieldSpec => ({ type: 'number', nullable: true, ...o }),
  bool: (o: Opts = {}): FieldSpec => ({ type: 'boolean', ...o }),
  boolN: (o: Opts = {}): FieldSpec => ({ type: 'boolean', nullable: true, ...o }),
  obj: (shape?: Record<string, FieldSpec>, o: Opts = {}): FieldSpec =>
    shape === undefined ? { type: 'object', ...o } : { type: 'object', shape, ...o },
  objN: (shape?: Record<string, FieldSpec>): FieldSpec =>
    shape === undefined ? { type: 'object', nullable: true } : { type: 'object', shape, nullable: true },
  arr: (items: FieldType | Record<string, FieldSpec> = 'string', o: Opts = {}): FieldSpec => ({
    type: 'array',
    items,
    ...o,
  }),
  arrN: (items: FieldType | Record<string, FieldSpec> = 'string'): FieldSpec => ({
    type: 'array',
    items,
    nullable: true,
  }),
  konst: (value: string): FieldSpec => ({ type: 'string', const: value }),
  oneOf: (values: readonly string[], nullable = false): FieldSpec => ({ type: 'string', enum: values, nullable }),
};

/** The same spec under several names, so long reference field lists stay one line: `...each(f.strN(), 'name status')`. */
export function each(spec: FieldSpec, names: string): Record<string, FieldSpec> {
  return Object.fromEntries(names.split(/\s+/).filter((n) => n !== '').map((n) => [n, spec]));
}

/** Searchable map written the way the reference groups it: `byType({ string: 'id name', int: 'age' })`. */
export function byType(groups: Partial<Record<FieldType, string>>): Record<string, FieldType> {
  const out: Record<string, FieldType> = {};
  for (const [type, names] of Object.entries(groups) as [FieldType, string][]) {
    for (const n of names.split(/\s+/).filter((n) => n !== '')) out[n] = type;
  }
  return out;
}

/**
 * Searchable map of an inferred entity, typed from its own record fields: an inferred searchable
 * field is always a record field, so generated records carry it. A typo fails at import time.
 */
export function searchOf(fields: Readonly<Record<string, FieldSpec>>, names: string): Record<string, FieldType> {
  const out: Record<string, FieldType> = {};
  for (const n of names.split(/\s+/).filter((n) => n !== '')) {
    const spec = fields[n];
    if (spec === undefined) throw new Error(`searchOf: "${n}" is not a record field`);
    out[n] = spec.type;
  }
  return out;
}
