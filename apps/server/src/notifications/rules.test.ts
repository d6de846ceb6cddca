import { NotificationKind } from '@btalk/contracts';
import { describe, expect, it } from 'vitest';
import { type Change, recipientsFor, type TopicAudienceMember } from './rules.ts';

type Level = TopicAudienceMember['chosenLevel'];

/** An audience from compact entries: `[id, canSee, member, chosenLevel]`. */
function audience(...people: [string, boolean, boolean, Level][]): Map<string, TopicAudienceMember> {
  return new Map(
    people.map(([userId, canSee, member, chosenLevel]) => [userId, { userId, canSee, member, chosenLevel }]),
  );
}

const told = (change: Change, who: Map<string, TopicAudienceMember>) =>
  Object.fromEntries(
    recipientsFor(change, who).map((r) => [r.userId, `${r.kind}${r.urgent ? ' urgent' : ''}`]),
  );

const { mention, comment, post, topicAdded, callStarted, callEscalation, callReminder } = NotificationKind;

describe('who is told what', () => {
  const cases: {
    name: string;
    change: Change;
    audience: Map<string, TopicAudienceMember>;
    expected: Record<string, string>;
  }[] = [
    {
      name: 'a mention in a post tells the person mentioned, not the author',
      change: { type: 'post.created', authorId: 'a', visibility: 'organisation', mentioned: ['m', 'a'] },
      audience: audience(['a', true, true, null], ['m', true, false, null]),
      expected: { m: mention },
    },
    {
      name: 'a mention of someone who cannot see the topic tells nobody',
      change: { type: 'post.created', authorId: 'a', visibility: 'members', mentioned: ['x'] },
      audience: audience(['a', true, true, null], ['x', false, false, null]),
      expected: {},
    },
    {
      name: 'a new post in a members-only topic tells members (default all posts)',
      change: { type: 'post.created', authorId: 'a', visibility: 'members', mentioned: [] },
      audience: audience(['a', true, true, null], ['b', true, true, null], ['c', true, true, 'mentions']),
      expected: { b: post },
    },
    {
      name: 'a new post in an organisation-wide topic tells only those who chose all posts',
      change: { type: 'post.created', authorId: 'a', visibility: 'organisation', mentioned: [] },
      audience: audience(['a', true, true, null], ['b', true, true, null], ['c', true, false, 'all']),
      expected: { c: post },
    },
    {
      name: 'a message in a direct conversation tells each of its people as a direct message, unless muted',
      change: { type: 'post.created', authorId: 'a', visibility: 'direct', mentioned: [] },
      audience: audience(
        ['a', true, true, null],
        ['b', true, true, null],
        ['c', true, true, 'muted'],
        ['d', true, true, 'mentions'],
        ['e', false, true, null],
      ),
      expected: { b: NotificationKind.direct },
    },
    {
      name: 'a mention in a direct conversation is a mention, and reaches a person who muted it',
      change: { type: 'post.created', authorId: 'a', visibility: 'direct', mentioned: ['b', 'c'] },
      audience: audience(['a', true, true, null], ['b', true, true, null], ['c', true, true, 'muted']),
      expected: { b: mention, c: mention },
    },
    {
      name: 'a muted topic stays quiet on new posts',
      change: { type: 'post.created', authorId: 'a', visibility: 'members', mentioned: [] },
      audience: audience(['a', true, true, null], ['b', true, true, 'muted']),
      expected: {},
    },
    {
      name: 'a mention still reaches a person who muted the topic, once, as a mention',
      change: { type: 'post.created', authorId: 'a', visibility: 'members', mentioned: ['b', 'c'] },
      audience: audience(['a', true, true, null], ['b', true, true, 'muted'], ['c', true, true, null]),
      expected: { b: mention, c: mention },
    },
    {
      name: 'a new comment tells everyone whose bell rings, not the commenter',
      change: {
        type: 'comment.created',
        authorId: 'c',
        visibility: 'organisation',
        mentioned: [],
        bellRinging: ['a', 'c', 'd'],
      },
      audience: audience(['a', true, false, null], ['c', true, false, null], ['d', true, false, null]),
      expected: { a: comment, d: comment },
    },
    {
      name: 'a comment mentioning a bell ringer tells them once, as a mention',
      change: {
        type: 'comment.created',
        authorId: 'c',
        visibility: 'organisation',
        mentioned: ['a'],
        bellRinging: ['a'],
      },
      audience: audience(['a', true, false, null], ['c', true, false, null]),
      expected: { a: mention },
    },
    {
      name: 'a bell ringer who muted the topic, or lost access to it, is not told of comments',
      change: {
        type: 'comment.created',
        authorId: 'c',
        visibility: 'members',
        mentioned: [],
        bellRinging: ['a', 'r'],
      },
      audience: audience(['a', true, true, 'muted'], ['r', false, false, null], ['c', true, true, null]),
      expected: {},
    },
    {
      name: 'an edit tells only the people it mentions for the first time',
      change: { type: 'post.edited', authorId: 'a', visibility: 'organisation', newlyMentioned: ['n'] },
      audience: audience(['n', true, false, null]),
      expected: { n: mention },
    },
    {
      name: 'being added to a topic tells that person, not the one who added them',
      change: { type: 'member.added', actorId: 'o', addedIds: ['o', 'p'] },
      audience: audience(['o', true, true, null], ['p', true, true, null]),
      expected: { p: topicAdded },
    },
    {
      name: 'a call-tree event tells every target, urgent, whatever their levels',
      change: { type: 'calltree', kind: 'started', recipientIds: ['t1', 't2'] },
      audience: audience(['t1', true, true, 'muted']),
      expected: { t1: `${callStarted} urgent`, t2: `${callStarted} urgent` },
    },
    {
      name: 'an escalation tells the manager, urgent',
      change: { type: 'calltree', kind: 'escalation', recipientIds: ['boss'] },
      audience: audience(),
      expected: { boss: `${callEscalation} urgent` },
    },
    {
      name: 'a reminder tells the non-responders, urgent',
      change: { type: 'calltree', kind: 'reminder', recipientIds: ['s'] },
      audience: audience(),
      expected: { s: `${callReminder} urgent` },
    },
  ];
  it.each(cases)('$name', ({ change, audience: who, expected }) => {
    expect(told(change, who)).toEqual(expected);
  });
});
