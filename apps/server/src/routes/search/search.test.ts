import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { newId } from '../../ids.ts';
import { sqliteMatches } from '../../search/searchIndex.ts';
import { PNG, uploaded } from '../../test/attachments.ts';
import { describeEachDatabase } from '../../test/db.ts';
import { useTestServer } from '../../test/server.ts';
import { signedIn } from '../../test/session.ts';
import { as, buildPost, buildTopic, dataOf } from '../../test/topics.ts';

interface Hit {
  kind: string;
  topicId: string;
  postId: string | null;
  postNumber: number | null;
  commentId: string | null;
  author: { id: string; displayName: string } | null;
  hasFile: boolean;
  snippet: string;
  highlights: { start: number; end: number }[];
  createdAt: string;
}

interface Found {
  items: Hit[];
  nextCursor: string | null;
  filters: {
    topic: { id: string; title: string } | null;
    author: { id: string; displayName: string } | null;
  };
}

/** A word no other test writes: tests share one server per database. */
const unique = (prefix: string) =>
  `${prefix}${newId()
    .replace(/[^a-z0-9]/gi, '')
    .slice(-8)
    .toLowerCase()}`;

/** The highlighted parts of a hit's snippet. */
const marked = (hit: Hit) => hit.highlights.map((h) => hit.snippet.slice(h.start, h.end));

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

  const find = async (who: Awaited<ReturnType<typeof signedIn>>, params: Record<string, string>) => {
    const res = await as(server, who).get(`/api/search?${new URLSearchParams(params)}`);
    return dataOf<Found>(res);
  };
  const refused = async (who: Awaited<ReturnType<typeof signedIn>>, params: Record<string, string>) => {
    const res = await as(server, who).get(`/api/search?${new URLSearchParams(params)}`);
    expect(res.statusCode, res.body).toBe(400);
    return res.json().details[0] as { field: string; reason: string };
  };

  it('answers snippets as plain text: no Markdown marks, link targets or mention ids, the words marked', async () => {
    const alice = await signedIn(server);
    const somchai = await signedIn(server, { display_name: 'Somchai Jaidee' });
    const t = await buildTopic(server, alice);
    const word = unique('budget');
    const post = await buildPost(
      server,
      alice,
      t.id,
      `## Plan\n\n**${word}** review with @[Somchai Jaidee](user:${somchai.user.id}), see [the sheet](https://example.com/secret-target?id=42) and _notes_`,
    );
    const { items } = await find(alice, { q: word.toUpperCase() });
    expect(items).toHaveLength(1);
    const hit = items[0]!;
    expect(hit).toMatchObject({
      kind: 'post',
      postId: post.id,
      postNumber: 1,
      commentId: null,
      hasFile: false,
    });
    expect(hit.author).toMatchObject({ id: alice.user.id });
    expect(hit.snippet).toBe(`Plan ${word} review with @Somchai Jaidee, see the sheet and notes`);
    expect(marked(hit)).toEqual([word]);
    // What the reader does not see is not found either.
    expect((await find(alice, { q: `secret-target ${word}` })).items).toEqual([]);
    expect((await find(alice, { q: `${somchai.user.id} ${word}` })).items).toEqual([]);
    expect((await find(alice, { q: `@somchai ${word}` })).items).toHaveLength(1);
  });

  it('cuts a long snippet around the first match, Thai without splitting a syllable, and marks every word', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const tag = unique('x');
    const before = 'ทุกคนปลอดภัยดี ระบบไฟฟ้ากลับมาใช้งานได้ตามปกติแล้ว ขอบคุณทุกคนที่ช่วยกันตรวจสอบอาคาร'.repeat(3);
    const body = `${before}รายงานสถานะน้ำท่วมชั้นล่าง ${tag} ${'และเจ้าหน้าที่ได้ย้ายเอกสารขึ้นชั้นสองเรียบร้อยแล้ว'.repeat(6)}`;
    await buildPost(server, alice, t.id, body);
    const [hit] = (await find(alice, { q: `น้ำท่วม ${tag}` })).items;
    expect(hit!.snippet.startsWith('…')).toBe(true);
    expect(hit!.snippet.endsWith('…')).toBe(true);
    expect(hit!.snippet.length).toBeLessThanOrEqual(202);
    // The text after the cut starts on a letter, not on a vowel or tone mark.
    expect(hit!.snippet[1]).toMatch(/^\P{M}$/u);
    expect(marked(hit!)).toEqual(['น้ำท่วม', tag]);
  });

  it('finds comments and lands on their post', async () => {
    const alice = await signedIn(server);
    const bob = await signedIn(server);
    const t = await buildTopic(server, alice);
    await buildPost(server, alice, t.id, 'first');
    const post = await buildPost(server, alice, t.id, 'second');
    const word = unique('comment');
    const comment = dataOf<{ id: string }>(
      await as(server, bob).post(`/api/posts/${post.id}/comments`, {
        clientId: newId(),
        body: `a *${word}* here`,
      }),
    );
    const { items } = await find(alice, { q: word });
    expect(items).toEqual([
      expect.objectContaining({
        kind: 'comment',
        topicId: t.id,
        postId: post.id,
        postNumber: 2,
        commentId: comment.id,
        snippet: `a ${word} here`,
      }),
    ]);
    expect(items[0]!.author).toMatchObject({ id: bob.user.id });
    const edited = unique('edited');
    dataOf(await as(server, bob).patch(`/api/comments/${comment.id}`, { body: edited }));
    expect((await find(alice, { q: word })).items).toEqual([]);
    expect((await find(alice, { q: edited })).items).toHaveLength(1);
    dataOf(await as(server, bob).delete(`/api/comments/${comment.id}`));
    expect((await find(alice, { q: edited })).items).toEqual([]);
  });

  it('filters by topic, author, files, kind and date, with words or without', async () => {
    const alice = await signedIn(server, { display_name: 'Alice Filter' });
    const bob = await signedIn(server, { display_name: 'Bob Filter' });
    const word = unique('pump');
    const t1 = await buildTopic(server, alice, { title: `Station ${word}` });
    const t2 = await buildTopic(server, bob);
    const a1 = await buildPost(server, alice, t1.id, `${word} one`);
    const b1 = await buildPost(server, bob, t1.id, `${word} two`);
    const b2 = await buildPost(server, bob, t2.id, `${word} three`);
    const [file] = await uploaded(server, bob, t2.id, [
      { name: 'pump.png', content: PNG, type: 'image/png' },
    ]);
    const withFile = await buildPost(server, bob, t2.id, `${word} photo`, { attachmentIds: [file!.id] });
    const [onlyFile] = await uploaded(server, bob, t2.id, [
      { name: 'log.png', content: PNG, type: 'image/png' },
    ]);
    const fileOnly = await buildPost(server, bob, t2.id, '', { attachmentIds: [onlyFile!.id] });
    const ids = (found: Found) => found.items.map((h) => h.postId ?? `topic:${h.topicId}`);

    expect(ids(await find(alice, { q: word }))).toEqual([withFile.id, b2.id, b1.id, a1.id, `topic:${t1.id}`]);
    const inTopic = await find(alice, { q: word, topic: t1.id });
    expect(ids(inTopic)).toEqual([b1.id, a1.id, `topic:${t1.id}`]);
    expect(inTopic.filters.topic).toEqual({ id: t1.id, title: `Station ${word}` });
    const byBob = await find(alice, { q: word, author: bob.user.id });
    expect(ids(byBob)).toEqual([withFile.id, b2.id, b1.id]);
    expect(byBob.filters.author).toMatchObject({ id: bob.user.id, displayName: 'Bob Filter' });
    expect(ids(await find(alice, { q: word, author: bob.user.id, topic: t1.id }))).toEqual([b1.id]);
    expect(ids(await find(alice, { q: word, hasFile: 'true' }))).toEqual([withFile.id]);
    expect(ids(await find(alice, { q: word, hasFile: 'false', kind: 'post' }))).toEqual([
      b2.id,
      b1.id,
      a1.id,
    ]);
    expect(ids(await find(alice, { q: word, kind: 'topic' }))).toEqual([`topic:${t1.id}`]);
    // Without words: everything the filters allow (a post with a file and no text too), newest first.
    const bobsFiles = await find(alice, { author: bob.user.id, hasFile: 'true' });
    expect(ids(bobsFiles)).toEqual([fileOnly.id, withFile.id]);
    expect(bobsFiles.items[0]).toMatchObject({ snippet: '', highlights: [], hasFile: true });
    expect(ids(await find(alice, { topic: t2.id, kind: 'post' }))).toEqual([fileOnly.id, withFile.id, b2.id]);

    // Dates: a post written in January.
    await server.ctx.db.kysely
      .updateTable('search_documents')
      .set({ created_at: '2026-01-15T20:00:00.000Z' })
      .where('ref_id', '=', a1.id)
      .execute();
    expect(ids(await find(alice, { q: word, from: '2026-01-15', to: '2026-01-15' }))).toEqual([a1.id]);
    expect(ids(await find(alice, { q: word, to: '2026-01-15T19:59:59Z' }))).toEqual([]);
    // 03:00 on the 16th in Bangkok is 20:00 on the 15th in UTC.
    expect(ids(await find(alice, { q: word, from: '2026-01-16T03:00:00+07:00', to: '2026-01-31' }))).toEqual([
      a1.id,
    ]);
    expect(ids(await find(alice, { q: word, from: '2026-01-16' }))).not.toContain(a1.id);
  });

  it('refuses bad filters with the field and the reason', async () => {
    const alice = await signedIn(server);
    const eve = await signedIn(server);
    const secret = await buildTopic(server, alice, { visibility: 'members' });
    expect(await refused(alice, { q: 'x', from: '2026-13-45' })).toMatchObject({ field: 'query.from' });
    expect((await refused(alice, { q: 'x', to: 'yesterday' })).reason).toMatch(/date like 2026-11-25/);
    expect(await refused(alice, { q: 'x', from: '2026-02-01', to: '2026-01-31' })).toEqual({
      field: 'query.to',
      reason: 'must not be before from',
    });
    expect(await refused(alice, { q: 'x', hasFile: 'maybe' })).toEqual({
      field: 'query.hasFile',
      reason: 'must be true or false',
    });
    expect(await refused(alice, { q: 'x', kind: 'person' })).toMatchObject({ field: 'query.kind' });
    expect(await refused(alice, { q: 'x', person: alice.user.id })).toEqual({
      field: 'query.person',
      reason: 'is not a known field: remove it',
    });
    expect(await refused(alice, { q: 'x', author: 'nobody' })).toEqual({
      field: 'query.author',
      reason: 'no person has this id',
    });
    // Someone else's members-only topic is as unknown as one that does not exist.
    const unknownTopic = await refused(eve, { q: 'x', topic: 'no-such-topic' });
    expect(await refused(eve, { q: 'x', topic: secret.id })).toEqual(unknownTopic);
    expect(unknownTopic).toEqual({ field: 'query.topic', reason: 'no topic you can see has this id' });
    expect(await refused(alice, {})).toEqual({
      field: 'query.q',
      reason: 'type words to find, or choose a filter',
    });
    expect(dataOf<Found>(await as(server, alice).get(`/api/search?topic=${secret.id}`)).items).toHaveLength(
      1,
    );
  });

  it('never empties the results for punctuation around words, and never errors on any', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const word = unique('budget');
    const post = await buildPost(server, alice, t.id, `Re: ${word} for Q3 (draft) ratio a:b, see "plan"`);
    const hits = async (q: string) => (await find(alice, { q })).items.map((h) => h.postId);
    for (const q of [
      `re: ${word}`,
      `re:${word}`,
      `"${word}"`,
      `'${word}'`,
      `(${word})`,
      `[${word}]`,
      `${word}:`,
      `${word}.`,
      `${word}?`,
      `**${word}**`,
      `${word} (draft)`,
      `${word} a:b`,
      `“${word}”`,
    ]) {
      expect(await hits(q), q).toEqual([post.id]);
    }
    const [hit] = (await find(alice, { q: `re: ${word}` })).items;
    expect(marked(hit!)).toEqual(['Re', word]);
    // FTS5 query syntax and LIKE wildcards are text like any other: no error, no wildcard.
    for (const q of [
      '"',
      "'",
      '(',
      ')',
      '*',
      '^',
      ':',
      '%',
      '_',
      '\\',
      '"unclosed',
      'NEAR(a b)',
      'body:x',
      '{x}',
      '-',
      'a OR b',
      `${word}*`,
      `${word} NOT`,
    ]) {
      const res = await as(server, alice).get(`/api/search?q=${encodeURIComponent(q)}`);
      expect(res.statusCode, q).toBe(200);
    }
    expect(await hits(`${word}%`)).toEqual([]);
    expect(await hits(`${word.slice(0, 3)}_${word.slice(4)}`)).toEqual([]);
  });

  it('keeps finding Thai inside words, with punctuation around them', async () => {
    const alice = await signedIn(server);
    const t = await buildTopic(server, alice);
    const tag = unique('th');
    const post = await buildPost(server, alice, t.id, `แจ้งซ่อมเครื่องปั่นไฟสำรองอาคารบี ${tag}`);
    for (const q of ['ปั่นไฟ', '"ปั่นไฟ"', '(ไฟสำรอง)', 'ซ่อมเครื่อง:', 'สำรองอาคาร']) {
      expect(
        (await find(alice, { q: `${q} ${tag}` })).items.map((h) => h.postId),
        q,
      ).toEqual([post.id]);
    }
    const [hit] = (await find(alice, { q: `ปั่นไฟ ${tag}` })).items;
    expect(marked(hit!)).toEqual(['ปั่นไฟ', tag]);
  });

  it('never shows strangers’ topics, their posts or comments, whatever the filters', async () => {
    const alice = await signedIn(server);
    const eve = await signedIn(server);
    const word = unique('hush');
    const t = await buildTopic(server, alice, { title: `Secret ${word}`, visibility: 'members' });
    const post = await buildPost(server, alice, t.id, `${word} plan`);
    dataOf(
      await as(server, alice).post(`/api/posts/${post.id}/comments`, {
        clientId: newId(),
        body: `${word} agreed`,
      }),
    );
    expect((await find(alice, { q: word })).items).toHaveLength(3);
    expect((await find(eve, { q: word })).items).toEqual([]);
    expect((await find(eve, { author: alice.user.id })).items).toEqual([]);
    expect((await find(eve, { q: word, kind: 'comment' })).items).toEqual([]);
    expect((await find(eve, { from: '2020-01-01' })).items.map((h) => h.topicId)).not.toContain(t.id);
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
