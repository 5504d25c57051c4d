/** A call to the product's /api/v1 as a walk's fixtures make it: JSON in and out, a bearer token when given; anything but 2xx throws with the reply. */
export async function callApi<T>(base: string, method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const reply = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await reply.text();
  if (!reply.ok) throw new Error(`${method} ${path}: ${reply.status} ${text}`);
  return (text ? JSON.parse(text) : {}) as T;
}
