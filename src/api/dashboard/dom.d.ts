// Types of the dashboard's DOM helpers, for tests that import them from Node.
export function escapeHtml(value: unknown): string;
export function h(tag: string, attrs?: Record<string, unknown> | null, ...children: unknown[]): unknown;
export function s(tag: string, attrs?: Record<string, unknown> | null, ...children: unknown[]): unknown;
export function fill(node: unknown, ...children: unknown[]): unknown;
export function fmtTime(iso: string | null | undefined): string;
export function fmtDuration(ms: number | null | undefined): string;
export function fmtNum(n: number | string | null | undefined): string;
