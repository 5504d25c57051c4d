/** A call to the product's /api/v1 as a walk's fixtures make it: JSON in and out, a bearer token when given; its status and reply. */
export async function replyOf<T>(
  base: string,
  method: string,
  path: string,
  token: string | null,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const reply = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await reply.text();
  return { status: reply.status, json: (text ? JSON.parse(text) : null) as T };
}

/** The same, for a call that must succeed: anything but 2xx throws with the reply. */
export async function callApi<T>(base: string, method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const reply = await replyOf<T>(base, method, path, token, body);
  if (reply.status < 200 || reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.json)}`);
  return (reply.json ?? {}) as T;
}
