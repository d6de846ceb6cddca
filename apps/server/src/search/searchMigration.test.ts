import { type Kysely, sql } from 'kysely';
import { expect, it } from 'vitest';
import { down, up } from '../db/migrations/20261125160002-search-filters-and-comments.ts';
import { newId } from '../ids.ts';
import { PNG, uploaded } from '../test/attachments.ts';
import { describeEachDatabase } from '../test/db.ts';
import { useTestServer } from '../test/server.ts';
import { signedIn } from '../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../test/topics.ts';

interface Hit {
  kind: string;
  postId: string | null;
  commentId: string | null;
  author: { id: string } | null;
  hasFile: boolean;
  snippet: string;
}

describeEachDatabase('migration 20261125160002: search filters and comments', (kind) => {
  const server = useTestServer(kind);

  it('fills in the documents written before it and rewrites their text as plain text', async () => {
    const db = server.ctx.db.kysely as unknown as Kysely<unknown>;
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const t = await buildTopic(server, alice, { title: 'Pumps **station**' });
    const post = await buildPost(
      server,
      alice,
      t.id,
      'The **generator** log: [link](https://example.com/hidden)',
    );
    const [file] = await uploaded(server, alice, t.id, [{ name: 'a.png', content: PNG, type: 'image/png' }]);
    const fileOnly = await buildPost(server, alice, t.id, '', { attachmentIds: [file!.id] });
    const comment = dataOf<{ id: string }>(
      await as(server, bob).post(`/api/posts/${post.id}/comments`, {
        clientId: newId(),
        body: 'ok _generator_',
      }),
    );

    // The index as it was before: Markdown text, no comments, no posts without text, no filter columns.
    await down(db);
    await sql`delete from search_documents where ref_id = ${fileOnly.id}`.execute(db);
    await sql`update search_documents set body = (select p.body from posts p where p.id = search_documents.ref_id)
      where kind = 'post'`.execute(db);
    await up(db);

    const search = async (params: Record<string, string>) =>
      dataOf<{ items: Hit[] }>(await as(server, alice).get(`/api/search?${new URLSearchParams(params)}`))
        .items;
    expect(await search({ q: 'generator', topic: t.id })).toEqual([
      expect.objectContaining({
        kind: 'comment',
        postId: post.id,
        commentId: comment.id,
        snippet: 'ok generator',
      }),
      expect.objectContaining({
        kind: 'post',
        postId: post.id,
        hasFile: false,
        snippet: 'The generator log: link',
      }),
    ]);
    expect(await search({ q: 'hidden', topic: t.id })).toEqual([]);
    expect(await search({ topic: t.id, hasFile: 'true' })).toEqual([
      expect.objectContaining({
        postId: fileOnly.id,
        author: expect.objectContaining({ id: alice.user.id }),
      }),
    ]);
    expect(await search({ topic: t.id, author: bob.user.id })).toEqual([
      expect.objectContaining({ commentId: comment.id }),
    ]);
    expect(await search({ q: 'station', kind: 'topic', author: alice.user.id, topic: t.id })).toEqual([
      expect.objectContaining({ kind: 'topic', snippet: 'Pumps station' }),
    ]);
  });
});
