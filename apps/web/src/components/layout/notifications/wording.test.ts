import type { Notification } from '@btalk/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { i18n, startI18n } from '../../../i18n/index.ts';
import { topicLink, wordNotification } from './wording.ts';

beforeAll(async () => {
  await startI18n();
});

const topic = { topicId: 't 1', topicTitle: 'Safety drills', actorId: 'u1', actorName: 'Malee' };

function note(kind: string, data: Record<string, unknown>): Notification {
  return {
    id: 'n1',
    kind,
    urgent: false,
    title: 'server title',
    body: 'server body',
    data,
    createdAt: '2026-01-01T00:00:00.000Z',
    readAt: null,
  };
}

const mention = note('post.mention', { ...topic, postId: 'p1', postNumber: 7, excerpt: 'See the plan' });
const comment = note('post.comment', {
  ...topic,
  actorName: 'Somchai',
  postId: 'p1',
  postNumber: 7,
  commentId: 'c/9',
  excerpt: 'Done',
});
const post = note('topic.post', {
  ...topic,
  actorName: 'Somchai',
  postId: 'p2',
  postNumber: 8,
  excerpt: 'Hi',
});
const added = note('topic.added', { ...topic, actorName: 'Somchai', excerpt: '' });

describe('wordNotification', () => {
  it('words every topic kind in English, with the excerpt as the text and a link to the post', () => {
    const t = i18n.getFixedT('en');
    expect(wordNotification(mention, t)).toEqual({
      title: 'Malee mentioned you in Safety drills',
      body: 'See the plan',
      to: '/topics/t%201#post-7',
    });
    expect(wordNotification(comment, t)).toEqual({
      title: 'Somchai commented on a post in Safety drills',
      body: 'Done',
      to: '/topics/t%201?comment=c%2F9#post-7',
    });
    expect(wordNotification(post, t).title).toBe('Somchai posted in Safety drills');
    expect(wordNotification(added, t)).toEqual({
      title: 'Somchai added you to Safety drills',
      body: '',
      to: '/topics/t%201',
    });
  });

  it('words every topic kind in Thai', async () => {
    await i18n.loadLanguages('th');
    const t = i18n.getFixedT('th');
    expect(wordNotification(mention, t).title).toBe('Malee กล่าวถึงคุณใน Safety drills');
    expect(wordNotification(comment, t).title).toBe('Somchai แสดงความคิดเห็นบนโพสต์ใน Safety drills');
    expect(wordNotification(post, t).title).toBe('Somchai โพสต์ใน Safety drills');
    expect(wordNotification(added, t).title).toBe('Somchai เพิ่มคุณเข้าหัวข้อ Safety drills');
  });

  it('words a direct message by its sender in both languages, linking to the message', () => {
    const direct = note('direct.message', {
      ...topic,
      topicTitle: 'Malee, Somchai',
      actorName: 'Somchai',
      postId: 'p3',
      postNumber: 2,
      excerpt: 'Lunch?',
    });
    expect(wordNotification(direct, i18n.getFixedT('en'))).toEqual({
      title: 'Somchai sent you a message',
      body: 'Lunch?',
      to: '/topics/t%201#post-2',
    });
    expect(wordNotification(direct, i18n.getFixedT('th')).title).toBe('Somchai ส่งข้อความถึงคุณ');
  });

  it('words call-tree kinds in both languages and links to the event', () => {
    const reminder = note('calltree.reminder', { eventId: 'e1', eventTitle: 'Fire drill' });
    expect(wordNotification(reminder, i18n.getFixedT('en'))).toEqual({
      title: 'Reminder: Fire drill',
      body: 'Please answer: are you safe?',
      to: '/calltree/event/e1',
    });
    expect(wordNotification(reminder, i18n.getFixedT('th')).title).toBe('แจ้งเตือนอีกครั้ง: Fire drill');
  });

  it('words an important post and its reminder in both languages, with the request, linking to the post', async () => {
    await i18n.loadLanguages('th');
    const data = { topicId: 't1', topicTitle: 'Safety drills', postId: 'p4', number: 4, urgent: false };
    const asked = note('post.announcement', { ...data, excerpt: 'New exits', dueAt: null });
    expect(wordNotification(asked, i18n.getFixedT('en'))).toEqual({
      title: 'Important: Safety drills',
      body: 'New exits · Please acknowledge it.',
      to: '/topics/t1#post-4',
    });
    expect(wordNotification(asked, i18n.getFixedT('th')).title).toBe('สำคัญ: Safety drills');
    const reminder = note('announcement.reminder', { ...data, dueAt: '2026-12-01T10:00:00.000Z' });
    const worded = wordNotification(reminder, i18n.getFixedT('en'));
    expect(worded.title).toBe('Reminder: please acknowledge a post in Safety drills');
    expect(worded.body).toMatch(/^Please acknowledge it by .*2026/);
    expect(worded.to).toBe('/topics/t1#post-4');
    expect(wordNotification(reminder, i18n.getFixedT('th')).title).toBe(
      'เตือน: โปรดกดรับทราบโพสต์ใน Safety drills',
    );
    // Without the topic's title: the server's words.
    expect(
      wordNotification(note('post.announcement', { topicId: 't1', number: 4 }), i18n.getFixedT('en')),
    ).toEqual({
      title: 'server title',
      body: 'server body',
      to: '/topics/t1#post-4',
    });
  });

  it('falls back to the server’s words for unknown kinds or missing values', () => {
    const t = i18n.getFixedT('en');
    expect(wordNotification(note('something.new', {}), t)).toEqual({
      title: 'server title',
      body: 'server body',
      to: null,
    });
    expect(wordNotification(note('post.mention', { topicId: 't1' }), t)).toMatchObject({
      title: 'server title',
      to: '/topics/t1',
    });
  });
});

describe('topicLink', () => {
  it('leads to the topic, its post, and a comment only together with its post', () => {
    expect(topicLink({})).toBeNull();
    expect(topicLink({ topicId: 't1', commentId: 'c1' })).toBe('/topics/t1');
    expect(topicLink({ topicId: 't1', postNumber: 2, commentId: 'c1' })).toBe('/topics/t1?comment=c1#post-2');
  });
});
