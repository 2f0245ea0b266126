// Small fetch wrapper: JSON in, JSON out, errors carry the server's code and sentence.
export async function call(method, path, body, token) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await response.json();
  if (!response.ok) throw Object.assign(new Error(data.message), { code: data.code, status: response.status });
  return data;
}

export function tokenFor(gameId) { return localStorage.getItem(`token:${gameId}`); }
export function saveToken(gameId, token) { localStorage.setItem(`token:${gameId}`, token); }
