import type { ChosenTopicVisibility, ReactionEmoji } from '@btalk/contracts';
import type { AppContext } from '../context.ts';
import type { UserRow } from '../db/schema.ts';
import { commentCreator, reactionAdder } from './commentCreator.ts';
import { postCreator } from './postCreator.ts';
import { topicCreator } from './topicCreator.ts';
import { transact } from './transact.ts';

interface SeedPost {
  /** Index into `people` of the author. */
  by: number;
  body: string;
  comments?: { by: number; body: string }[];
  reactions?: { by: number; emoji: ReactionEmoji }[];
}

interface SeedTopic {
  key: string;
  by: number;
  title: string;
  description: string;
  visibility: ChosenTopicVisibility;
  coverEmoji: string;
  /** Indexes into `people` of further members. */
  members: number[];
  posts: SeedPost[];
}

const mention = (person: UserRow) => `@[${person.display_name}](user:${person.id})`;

function seedTopics(people: UserRow[]): SeedTopic[] {
  const p = (i: number) => people[i % people.length]!;
  return [
    {
      key: 'welcome',
      by: 0,
      title: 'ยินดีต้อนรับสู่ BTalk · Welcome to BTalk',
      description: 'ทักทายกัน ถามเรื่องการใช้งาน และแนะนำตัว · Say hello and ask how things work.',
      visibility: 'organisation',
      coverEmoji: '👋',
      members: [],
      posts: [
        {
          by: 0,
          body: 'สวัสดีทุกคนครับ 🎉 ที่นี่คือ **BTalk** พื้นที่พูดคุยของเรา\n\n- โพสต์ข่าวสาร\n- ตอบกลับในความคิดเห็น\n- กดกระดิ่ง 🔔 เพื่อรับการแจ้งเตือน',
          reactions: [
            { by: 1, emoji: '👍' },
            { by: 2, emoji: '🎉' },
          ],
          comments: [{ by: 1, body: 'ยินดีที่ได้ร่วมงานครับ' }],
        },
        {
          by: 1,
          body: `Hello everyone! ${mention(p(2))}, could you share the onboarding checklist here?`,
          comments: [{ by: 2, body: 'Sure, I will post it this afternoon.' }],
          reactions: [{ by: 0, emoji: '❤️' }],
        },
        {
          by: 2,
          body: '| ขั้นตอน · Step | เจ้าของ · Owner |\n|---|---|\n| บัญชีผู้ใช้ · Accounts | IT |\n| บัตรพนักงาน · Badge | HR |',
          reactions: [{ by: 1, emoji: '🙏' }],
        },
      ],
    },
    {
      key: 'it-help',
      by: 1,
      title: 'ฝ่ายไอที · IT help desk',
      description: 'แจ้งปัญหาคอมพิวเตอร์และระบบ · Report computer and system problems.',
      visibility: 'organisation',
      coverEmoji: '💻',
      members: [],
      posts: [
        {
          by: 1,
          body: 'ระบบอีเมลจะปิดปรับปรุงคืนวันเสาร์ 22:00–02:00 น. · Mail maintenance on Saturday night.',
          reactions: [{ by: 0, emoji: '✅' }],
        },
        {
          by: 0,
          body: 'The printer on floor 3 shows `Error 49`. Anyone else?',
          comments: [
            { by: 1, body: 'เราส่งช่างไปดูแล้วครับ · A technician is on the way.' },
            { by: 0, body: 'Thank you!' },
          ],
        },
      ],
    },
    {
      key: 'lotus',
      by: 0,
      title: 'โครงการโลตัส · Project Lotus',
      description: 'เฉพาะสมาชิกโครงการ · Project members only.',
      visibility: 'members',
      coverEmoji: '🪷',
      members: [1, 2],
      posts: [
        {
          by: 0,
          body: `กำหนดส่งงานเฟสแรกคือวันศุกร์นี้ ${mention(p(1))} ช่วยตรวจเอกสารด้วยนะคะ`,
          comments: [{ by: 1, body: 'ได้ครับ จะส่งความเห็นภายในวันพฤหัส' }],
          reactions: [{ by: 1, emoji: '👍' }],
        },
        { by: 2, body: 'Draft timeline is ready for review.' },
      ],
    },
  ];
}

/**
 * Creates a few topics with Thai and English posts, comments and reactions from the given people,
 * so that a development server looks alive. Idempotent: every record has a fixed client-made id,
 * so running it again adds nothing. Needs at least two people.
 */
export async function seedDevelopmentTopics(ctx: AppContext, people: UserRow[]): Promise<{ topics: number }> {
  if (people.length < 2)
    throw new Error('seedDevelopmentTopics needs at least two people to hold a conversation.');
  const topics = seedTopics(people);
  const who = (i: number) => people[i % people.length]!;
  for (const seed of topics) {
    await transact(ctx, async (trx) => {
      const topicId = await topicCreator(trx, who(seed.by), {
        clientId: `seed-topic-${seed.key}`,
        title: seed.title,
        description: seed.description,
        visibility: seed.visibility,
        coverEmoji: seed.coverEmoji,
        memberIds: [...new Set(seed.members.map((i) => who(i).id))],
      });
      const topic = await trx
        .selectFrom('topics')
        .selectAll()
        .where('id', '=', topicId)
        .executeTakeFirstOrThrow();
      for (const [n, item] of seed.posts.entries()) {
        const { post } = await postCreator(
          trx,
          who(item.by),
          topic,
          { clientId: `seed-post-${seed.key}-${n}`, body: item.body, mentions: [], attachmentIds: [] },
          0,
        );
        for (const [c, comment] of (item.comments ?? []).entries()) {
          await commentCreator(trx, who(comment.by), topic, post, {
            clientId: `seed-comment-${seed.key}-${n}-${c}`,
            body: comment.body,
            mentions: [],
          });
        }
        for (const [r, reaction] of (item.reactions ?? []).entries()) {
          await reactionAdder(
            trx,
            who(reaction.by),
            { topic, post, comment: null },
            `seed-reaction-${seed.key}-${n}-${r}`,
            reaction.emoji,
          );
        }
      }
    });
  }
  return { topics: topics.length };
}
