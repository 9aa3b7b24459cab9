/**
 * Parent-value templates (`project = "{value}" ORDER BY created ASC`): the planner fills them,
 * the sandbox reads them back to know which parent a query names.
 */

const PLACEHOLDER = '{value}';

/** Whether the template wraps `{value}` in double quotes (then `"` and `\` in values are escaped). */
const quoted = (template: string): boolean => template.includes(`"${PLACEHOLDER}"`);

/** The template with every `{value}` replaced by `value`. */
export function applyTemplate(template: string, value: string): string {
  const v = quoted(template) ? value.replace(/["\\]/g, '\\$&') : value;
  return template.split(PLACEHOLDER).join(v);
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The value a filled template was made from, or null when `text` is not an instance of it. */
export function matchTemplate(template: string, text: string): string | null {
  const pattern = template.split(PLACEHOLDER).map(escapeRe).join(quoted(template) ? '((?:[^"\\\\]|\\\\.)*)' : '(.*?)');
  const m = new RegExp(`^${pattern}$`, 's').exec(text);
  if (m === null) return null;
  const value = m[1] ?? '';
  return quoted(template) ? value.replace(/\\(.)/g, '$1') : value;
}
