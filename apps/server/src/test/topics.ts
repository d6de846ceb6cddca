import type { CreateTopicRequest } from '@btalk/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { newId } from '../ids.ts';
import type { TestServer } from './server.ts';
import type { SignedIn } from './session.ts';

/** A request as a signed-in person: `as(alice).post('/api/topics', body)`. */
export function as(server: TestServer, who: SignedIn | null) {
  const headers = who ? who.headers : {};
  const send = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    server.request({
      method,
      url,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    get: (url: string) => send('GET', url),
    post: (url: string, payload: unknown = {}) => send('POST', url, payload),
    patch: (url: string, payload: unknown) => send('PATCH', url, payload),
    put: (url: string, payload: unknown) => send('PUT', url, payload),
    delete: (url: string) => send('DELETE', url),
  };
}

/** The `data` of a successful answer; fails with the answer's body when it was not a 200. */
export function dataOf<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  if (res.statusCode !== 200) throw new Error(`Expected 200, got ${res.statusCode}: ${res.body}`);
  return res.json().data as T;
}

/** Creates a topic through the API as `owner` (organisation-wide unless told), answering its data. */
export async function buildTopic(
  server: TestServer,
  owner: SignedIn,
  overrides: Partial<CreateTopicRequest> = {},
): Promise<{ id: string; title: string } & Record<string, unknown>> {
  return dataOf(
    await as(server, owner).post('/api/topics', {
      title: `Topic ${newId().slice(-6)}`,
      visibility: 'organisation',
      ...overrides,
    }),
  );
}

/** Writes a post through the API, answering its data. */
export async function buildPost(
  server: TestServer,
  author: SignedIn,
  topicId: string,
  body = 'Hello',
  extra: Record<string, unknown> = {},
): Promise<{ id: string; number: number } & Record<string, unknown>> {
  return dataOf(
    await as(server, author).post(`/api/topics/${topicId}/posts`, { clientId: newId(), body, ...extra }),
  );
}
