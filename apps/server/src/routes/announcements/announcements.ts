import {
  AcknowledgementResult,
  AnnouncementExportQuery,
  AnnouncementPeoplePage,
  AnnouncementPeopleQuery,
  AnnouncementReminderResult,
  AnnouncementReport,
  AnnouncementReportQuery,
  AnnouncementRequest,
  AnnouncementSeenRequest,
  okEnvelope,
  PendingAnnouncementList,
  Post,
  PostParams,
} from '@btalk/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AnnouncementProgressEmitter } from '../../announcements/progress.ts';
import {
  type AudiencePerson,
  audienceCsv,
  branchesOf,
  countPeople,
  departmentsOf,
  inBranch,
  inDepartment,
  loadAudience,
  pageOfPeople,
  withStatus,
} from '../../announcements/report.ts';
import { audit, requestClient } from '../../audit/audit.ts';
import { authenticate } from '../../auth/authenticate.ts';
import { acknowledgeAnnouncement, recordAnnouncementsSeen } from '../../commands/announcementAcknowledger.ts';
import {
  markAnnouncement,
  requireAnnouncement,
  unmarkAnnouncement,
} from '../../commands/announcementMarker.ts';
import { mayRemindAgain, remindAgain } from '../../commands/announcementReminder.ts';
import { transact } from '../../commands/transact.ts';
import type { AppContext } from '../../context.ts';
import type { Database } from '../../db/index.ts';
import type { UserRow } from '../../db/schema.ts';
import { contentDisposition } from '../../files/fileNames.ts';
import { ok } from '../../http/envelope.ts';
import { invalid } from '../../http/errors.ts';
import { limitWrites, perPerson } from '../../http/rateLimits.ts';
import { loadSettings } from '../../notifications/settings.ts';
import { excerptOf } from '../../notifications/topicNotices.ts';
import { authorize } from '../../policies/announcement.ts';
import { requireVisiblePost } from '../../policies/post.ts';
import { visibleTo } from '../../policies/topic.ts';
import { presentAnnouncement } from '../../presenters/announcement.ts';
import { presentPosts } from '../../presenters/post.ts';

/** At most this many pending announcements in Home's strip. */
const PENDING_LIMIT = 20;

/** One post as the person sees it (they may see it: checked before). */
async function loadPostView(db: Kysely<Database>, user: UserRow, postId: string): Promise<Post> {
  const { access, post } = await requireVisiblePost(db, user, postId);
  const [view] = await presentPosts(db, user, access, [post]);
  return view!;
}

/** Whether `zone` is an IANA time zone this Node knows. */
function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * Announcements (issue 17): mark a post important and change or take back its request, acknowledge
 * it, say it was on the screen, the caller's pending list, and for the author, the topic's owners and
 * admins the roll-up, the people list, the CSV and "remind again". Also runs this instance's progress
 * emitter (`announcement.progress`, coalesced).
 */
export function announcementRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const emitter = new AnnouncementProgressEmitter({
      db: ctx.db.kysely,
      bus: ctx.bus,
      onError: (error) =>
        app.log.error({ err: error }, 'announcement progress not told; retrying on the next commit'),
    });
    emitter.start();
    // Before the database closes (app.ts's onClose).
    app.addHook('preClose', async () => emitter.stop());

    app.addHook('onRequest', authenticate(ctx));
    limitWrites(app, perPerson(ctx.config.rateLimits.writesPerMinute, 'writes'));

    /** The post's report, after the rules: 404 for a post the person cannot see, 403 for a reader. */
    async function reportScope(db: Kysely<Database>, user: UserRow, postId: string) {
      const { access, post } = await requireVisiblePost(db, user, postId);
      authorize(user, 'report', { access, post }, ctx.config);
      const request = await requireAnnouncement(db, post);
      return { access, post, request };
    }

    app.put(
      '/posts/:postId/announcement',
      {
        schema: {
          summary:
            'Mark my post important, acknowledgement requested, or change its request (the author, where they may announce)',
          description:
            'The first mark asks everyone who may read the post now (but the author) and notifies them; later calls change urgent, due time and reminder delay and notify nobody again. Not on deleted posts, in archived topics or direct conversations (403).',
          params: PostParams,
          body: AnnouncementRequest,
          response: { 200: okEnvelope(Post) },
        },
      },
      async (request) => {
        const { user } = request;
        await transact(ctx, async (trx) => {
          const { access, post } = await requireVisiblePost(trx, user, request.params.postId);
          authorize(user, 'mark', { access, post }, ctx.config);
          await markAnnouncement(
            trx,
            user,
            { topic: access.topic, post },
            request.body,
            requestClient(request, 'web'),
          );
        });
        return ok(await loadPostView(ctx.db.kysely, user, request.params.postId));
      },
    );

    app.delete(
      '/posts/:postId/announcement',
      {
        schema: {
          summary: 'Take a post’s acknowledgement request back (the author, the topic’s owners, admins)',
          params: PostParams,
          response: { 200: okEnvelope(Post) },
        },
      },
      async (request) => {
        const { user } = request;
        await transact(ctx, async (trx) => {
          const { access, post } = await requireVisiblePost(trx, user, request.params.postId);
          authorize(user, 'unmark', { access, post }, ctx.config);
          await unmarkAnnouncement(trx, user, { topic: access.topic, post }, requestClient(request, 'web'));
        });
        return ok(await loadPostView(ctx.db.kysely, user, request.params.postId));
      },
    );

    app.post(
      '/posts/:postId/acknowledgement',
      {
        schema: {
          summary: 'Acknowledge an important post (idempotent: a second press answers the first time)',
          description:
            'Anyone who may read the post while it asks (a reader who joined since is added to its audience). 404 for a post the caller cannot see, 409 when it does not ask (any more), 403 for its author.',
          params: PostParams,
          response: { 200: okEnvelope(AcknowledgementResult) },
        },
      },
      async (request) => {
        const { acknowledgedAt, totals } = await transact(ctx, (trx) =>
          acknowledgeAnnouncement(trx, request.user, request.params.postId),
        );
        return ok({ acknowledgedAt, totals });
      },
    );

    app.post(
      '/announcements/seen',
      {
        config: { rateLimit: perPerson(ctx.config.rateLimits.pageViewsPerMinute, 'announcement-seen') },
        schema: {
          summary: 'Important posts that were on my screen (the first time counts); others are ignored',
          body: AnnouncementSeenRequest,
          response: { 200: okEnvelope(z.object({})) },
        },
      },
      async (request) => {
        await transact(ctx, (trx) => recordAnnouncementsSeen(trx, request.user, request.body.postIds));
        return ok({});
      },
    );

    app.get(
      '/announcements/pending',
      {
        schema: {
          summary: 'My important posts not acknowledged yet, urgent first, then newest (Home)',
          response: { 200: okEnvelope(PendingAnnouncementList) },
        },
      },
      async (request) => {
        const { user } = request;
        const db = ctx.db.kysely;
        const pending = () =>
          db
            .selectFrom('announcement_recipients as r')
            .innerJoin('announcements as a', 'a.post_id', 'r.post_id')
            .innerJoin('posts as p', 'p.id', 'r.post_id')
            .innerJoin('topics', 'topics.id', 'p.topic_id')
            .where('r.user_id', '=', user.id)
            .where('r.acknowledged_at', 'is', null)
            .where('p.deleted_at', 'is', null)
            .where(visibleTo(user.id));
        const [rows, count] = await Promise.all([
          pending()
            .innerJoin('users as author', 'author.id', 'p.author_id')
            .select([
              'p.id as post_id',
              'p.topic_id',
              'p.number',
              'p.body',
              'topics.title as topic_title',
              'author.display_name as author_name',
              'a.urgent',
              'a.due_at',
              'a.marked_at',
            ])
            .orderBy('a.urgent', 'desc')
            .orderBy('a.marked_at', 'desc')
            .orderBy('p.id', 'desc')
            .limit(PENDING_LIMIT)
            .execute(),
          pending()
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow(),
        ]);
        return ok({
          items: rows.map((r) => ({
            postId: r.post_id,
            topicId: r.topic_id,
            topicTitle: r.topic_title,
            number: Number(r.number),
            authorName: r.author_name,
            excerpt: excerptOf(r.body),
            urgent: Number(r.urgent) === 1,
            dueAt: r.due_at,
            markedAt: r.marked_at,
          })),
          total: Number(count.n),
        });
      },
    );

    app.get(
      '/posts/:postId/announcement/report',
      {
        schema: {
          summary:
            'Who has acknowledged an important post: totals, departments, branches of the manager hierarchy (the author, the topic’s owners, admins)',
          params: PostParams,
          querystring: AnnouncementReportQuery,
          response: { 200: okEnvelope(AnnouncementReport) },
        },
      },
      async (request) => {
        const db = ctx.db.kysely;
        const { post, request: row } = await reportScope(db, request.user, request.params.postId);
        const audience = await loadAudience(db, post.id);
        const scoped = inDepartment(audience.people, request.query.department);
        return ok({
          postId: post.id,
          topicId: post.topic_id,
          announcement: presentAnnouncement(row),
          totals: countPeople(scoped),
          departments: departmentsOf(audience.people),
          branches: branchesOf(audience, scoped),
          remindedAt: row.reminded_at,
          canRemind: mayRemindAgain(row, new Date()),
        });
      },
    );

    app.get(
      '/posts/:postId/announcement/people',
      {
        schema: {
          summary:
            'A page of an important post’s audience, not acknowledged first, then by name (the author, the topic’s owners, admins; audited)',
          params: PostParams,
          querystring: AnnouncementPeopleQuery,
          response: { 200: okEnvelope(AnnouncementPeoplePage) },
        },
      },
      async (request) => {
        const { user } = request;
        const { status, department, branch, cursor, limit } = request.query;
        const db = ctx.db.kysely;
        const { post } = await reportScope(db, user, request.params.postId);
        const audience = await loadAudience(db, post.id);
        const people = withStatus(inBranch(inDepartment(audience.people, department), branch), status);
        const page = pageOfPeople(people, cursor, limit);
        await transact(ctx, (trx) =>
          audit(trx, {
            actorId: user.id,
            action: 'announcement.people_viewed',
            target: `post:${post.id}`,
            details: {
              topicId: post.topic_id,
              status,
              department: department ?? null,
              branch: branch ?? null,
              // Whose status was shown.
              people: page.items.map((p) => p.id),
            },
            client: requestClient(request, 'web'),
          }),
        );
        return ok(page);
      },
    );

    app.get(
      '/posts/:postId/announcement/export',
      {
        schema: {
          summary:
            'An important post’s audience as CSV (UTF-8 with a byte-order mark; times in `tz`, default my time zone): Name, Email, Department, Manager, Seen, Acknowledged (audited)',
          params: PostParams,
          querystring: AnnouncementExportQuery,
          produces: ['text/csv'],
        },
      },
      async (request, reply) => {
        const { user } = request;
        const { department, tz } = request.query;
        if (tz !== undefined && !isTimeZone(tz)) {
          throw invalid('query.tz', 'must be an IANA time zone name such as Asia/Bangkok');
        }
        const db = ctx.db.kysely;
        const { access, post } = await reportScope(db, user, request.params.postId);
        const timeZone = tz ?? (await loadSettings(db, user.id)).quietHours.timeZone;
        const audience = await loadAudience(db, post.id);
        const people: AudiencePerson[] = inDepartment(audience.people, department);
        await transact(ctx, (trx) =>
          audit(trx, {
            actorId: user.id,
            action: 'announcement.exported',
            target: `post:${post.id}`,
            details: {
              topicId: post.topic_id,
              department: department ?? null,
              rows: people.length,
              timeZone,
            },
            client: requestClient(request, 'web'),
          }),
        );
        return reply
          .type('text/csv; charset=utf-8')
          .header(
            'content-disposition',
            contentDisposition(
              'attachment',
              `acknowledgements-${access.topic.title}-${Number(post.number)}.csv`,
            ),
          )
          .send(audienceCsv(people, timeZone));
      },
    );

    app.post(
      '/posts/:postId/announcement/reminders',
      {
        schema: {
          summary:
            'Remind everyone who has not acknowledged an important post again (the author, the topic’s owners, admins; once per 15 minutes)',
          params: PostParams,
          response: { 200: okEnvelope(AnnouncementReminderResult) },
        },
      },
      async (request) => {
        const { user } = request;
        const sent = await transact(ctx, async (trx) => {
          const { access, post } = await requireVisiblePost(trx, user, request.params.postId);
          authorize(user, 'report', { access, post }, ctx.config);
          return remindAgain(trx, user, { topic: access.topic, post }, requestClient(request, 'web'));
        });
        return ok(sent);
      },
    );
  };
}
