// The admin API client: the token lives in sessionStorage (this tab only) and goes out as a
// Bearer header; errors come back as {code, message} from the API's one error shape.

const KEY = 'syncdex.adminToken';

export const token = {
  get: () => sessionStorage.getItem(KEY),
  set: (value) => sessionStorage.setItem(KEY, value),
  clear: () => sessionStorage.removeItem(KEY),
};

export class ApiError extends Error {
  constructor(status, code, message, path) {
    super(message);
    this.status = status;
    this.code = code;
    // The offending field, as the API names it (`query.filter.and[1].eq.email`); undefined when none.
    this.path = path;
  }
}

/** Calls the API; resolves with the JSON body or throws an ApiError. */
export async function api(method, path, body) {
  const headers = { authorization: `Bearer ${token.get() ?? ''}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new ApiError(res.status, json?.error?.code ?? 'error', json?.error?.message ?? `HTTP ${res.status}`, json?.error?.path);
  return json;
}

/** Query string of the non-empty filter values. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const text = q.toString();
  return text === '' ? '' : `?${text}`;
}
