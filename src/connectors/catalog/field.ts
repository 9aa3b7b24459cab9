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
