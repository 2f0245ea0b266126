// The fetch wrapper of every page: JSON in, JSON out; a refusal carries the server's code and
// its sentence, so a page tells the player what the server said.
export async function call(method, path, body, token) {
  const headers = { "Accept": "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw Object.assign(new Error("The server cannot be reached; check your connection."), {
      code: "offline",
    });
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw Object.assign(new Error(data.message ?? `The server answered ${response.status}.`), {
      code: data.code ?? "http_error",
      status: response.status,
      fields: data.fields,
    });
  }
  return data;
}
