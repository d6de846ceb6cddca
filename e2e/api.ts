/** Calls the BTalk API as a person would through the app: the web client's key and their bearer token. */
export async function apiAs<T>(
  baseURL: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const init = (await (await fetch(`${baseURL}/__/firebase/init.json`)).json()) as { apiKey: string };
  const res = await fetch(`${baseURL}/api${path}`, {
    method,
    headers: {
      'x-api-key': init.apiKey,
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as { code: number; data?: T; message?: string };
  if (envelope.code !== 0)
    throw new Error(`${method} ${path} answered ${envelope.code}: ${envelope.message}`);
  return envelope.data as T;
}
