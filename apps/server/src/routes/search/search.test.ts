import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { sqliteMatches } from '../../search/searchIndex.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../../test/topics.ts';

interface Hit {
  kind: string;
  topicId: string;
  postId: string | null;
  postNumber: number | null;
  snippet: string;
}

describeEachDatabase('GET /api/search', (kind) => {
  const server = useTestServer(kind);
  const search = (who: Awaited<ReturnType<typeof signedIn>> | null, q: string, extra = '') =>
    as(server, who).get(`/api/search?q=${encodeURIComponent(q)}${extra}`);

  it('requires authentication and a query', async () => {
    expect((await search(null, 'x')).statusCode).toBe(401);
    const alice = await signedIn(server);
    const res = await as(server, alice).get('/api/search?q=%20');
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].field).toBe('query.q');
  });

  it('finds Thai text by any part of a word, and English words, in topics and posts', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice, {
      title: 'ฝ่ายบุคคลประกาศ',
      description: 'Human resources news',
    });
    const post = await buildPost(server, alice, t.id, 'พรุ่งนี้มีการประชุมประจำไตรมาสที่ห้องใหญ่');
    await buildPost(server, alice, t.id, 'The quarterly meeting moved to Friday');

    const thai = dataOf<{ items: Hit[] }>(await search(alice, 'ประชุมประจำ'));
    expect(thai.items).toEqual([
      expect.objectContaining({ kind: 'post', postId: post.id, postNumber: 1, topicId: t.id }),
    ]);
    expect(thai.items[0]!.snippet).toContain('ประชุมประจำ');
    const title = dataOf<{ items: Hit[] }>(await search(alice, 'บุคคล'));
    expect(title.items).toEqual([expect.objectContaining({ kind: 'topic', topicId: t.id, postId: null })]);
    const english = dataOf<{ items: Hit[] }>(await search(alice, 'QUARTERLY friday'));
    expect(english.items.map((h) => h.kind)).toEqual(['post']);
    const both = dataOf<{ items: Hit[] }>(await search(alice, 'quarterly ไตรมาส'));
    expect(both.items).toEqual([]);
    expect(dataOf<{ items: Hit[] }>(await search(alice, '100%_')).items).toEqual([]);
  });

  it('never shows members-only topics or their posts to non-members', async () => {
    const alice = await signedIn(server);
    const eve = await signedIn(server);
    const t = await buildTopic(server, alice, { title: 'Codename Nightingale', visibility: 'members' });
    await buildPost(server, alice, t.id, 'Nightingale launches on Monday');
    expect(dataOf<{ items: Hit[] }>(await search(alice, 'nightingale')).items).toHaveLength(2);
    expect(dataOf<{ items: Hit[] }>(await search(eve, 'nightingale')).items).toEqual([]);
  });

  it('forgets deleted posts and follows edits', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const post = await buildPost(server, alice, t.id, 'original wording xylophone');
    dataOf(await as(server, alice).patch(`/api/posts/${post.id}`, { body: 'new wording marimba' }));
    expect(dataOf<{ items: Hit[] }>(await search(alice, 'xylophone')).items).toEqual([]);
    expect(dataOf<{ items: Hit[] }>(await search(alice, 'marimba')).items).toHaveLength(1);
    dataOf(await as(server, alice).delete(`/api/posts/${post.id}`));
    expect(dataOf<{ items: Hit[] }>(await search(alice, 'marimba')).items).toEqual([]);
  });

  it('pages newest first with a cursor', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const posts = [];
    for (let i = 1; i <= 3; i++) posts.push(await buildPost(server, alice, t.id, `pagination-word ${i}`));
    const first = dataOf<{ items: Hit[]; nextCursor: string }>(
      await search(alice, 'pagination-word', '&limit=2'),
    );
    expect(first.items.map((h) => h.postNumber)).toEqual([3, 2]);
    const second = dataOf<{ items: Hit[]; nextCursor: string | null }>(
      await search(alice, 'pagination-word', `&limit=2&cursor=${first.nextCursor}`),
    );
    expect(second.items.map((h) => h.postNumber)).toEqual([1]);
    expect(second.nextCursor).toBeNull();
  });

  it('takes %, _ and \\ in a word literally', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const percent = await buildPost(server, alice, t.id, 'ลดราคา 100%_off วันนี้');
    const path = await buildPost(server, alice, t.id, 'the file is in C:\\temp\\reports');
    await buildPost(server, alice, t.id, 'ลดราคา 1000xoff and C:/temp/reports');
    const ids = async (q: string) =>
      dataOf<{ items: Hit[] }>(await search(alice, q)).items.map((h) => h.postId);
    expect(await ids('100%_off')).toEqual([percent.id]);
    expect(await ids('c:\\temp\\rep')).toEqual([path.id]);
    expect(await ids('0%_o')).toEqual([percent.id]);
  });

  if (kind === 'sqlite') {
    it('reads the matches from the trigram index, not every document', async () => {
      const plan = async (terms: string[]) =>
        (
          await sql<{ detail: string }>`explain query plan ${sqliteMatches(terms)}`.execute(
            server.ctx.db.kysely,
          )
        ).rows.map((r) => r.detail);
      // FTS5 names the LIKE it answers from its index (L); with none it scans every document.
      expect(await plan(['ประชุม'])).toEqual([expect.stringMatching(/VIRTUAL TABLE INDEX 0:L\d/)]);
      expect(await plan(['quarterly', 'ไตรมาส'])).toEqual([expect.stringMatching(/INDEX 0:L\d+L\d+/)]);
    });
  }
});
