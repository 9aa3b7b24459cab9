/**
 * The characters that structure JSON text, as UTF-16 code units and as UTF-8 bytes alike (all
 * ASCII): the scanners that find values in JSON without parsing it (search/json-projection.ts
 * over a document's text, connectors/record-spans.ts over a page's bytes) share them.
 */
export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
export const CLOSE_ARRAY = 0x5d;
export const COMMA = 0x2c;
export const COLON = 0x3a;

/** Whether a code is JSON whitespace (space, line feed, carriage return, tab). */
export const isSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
