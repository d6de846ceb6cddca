import type { Post } from '@btalk/contracts';
import CheckCircle from '@mui/icons-material/CheckCircle';
import PriorityHigh from '@mui/icons-material/PriorityHigh';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AcknowledgeButton } from '../../../components/announcements/AcknowledgeButton.tsx';
import { dueText } from '../../../components/announcements/dueTime.ts';
import { useSeenOnScreen } from '../../../components/announcements/seen.ts';
import { UrgentChip } from '../../../components/announcements/UrgentChip.tsx';
import { fullTime, shortTime } from '../../../components/time.ts';
import { useTopic } from './useTopicData.ts';

/** The address of an important post's acknowledgement report. */
export function reportPath(post: Pick<Post, 'topicId' | 'id'>): string {
  return `/topics/${encodeURIComponent(post.topicId)}/posts/${encodeURIComponent(post.id)}/acknowledgements`;
}

/**
 * Whether the caller is asked to acknowledge the post now: it is important, not theirs, not deleted,
 * and they have not acknowledged it yet.
 */
export function asksMe(post: Post, myId: string | undefined): boolean {
  return (
    post.announcement !== null &&
    post.deletedAt === null &&
    post.acknowledgedAt === null &&
    myId !== undefined &&
    post.author.id !== myId
  );
}

/**
 * Reports the post as seen when it is on the screen and the caller is asked about it; `articleRef` is
 * the post's element.
 */
export function usePostSeen(articleRef: RefObject<HTMLElement | null>, post: Post, myId: string | undefined) {
  useSeenOnScreen(articleRef, asksMe(post, myId) ? post.id : null);
}

/**
 * The "Important: acknowledgement requested" part of an important post: urgency and due time, the
 * count everyone sees, the reader's Acknowledge (or when they did), and for the author, the topic's
 * owners and admins the way to who has read it.
 */
export function PostAnnouncement({ post, myId }: { post: Post; myId: string | undefined }) {
  const { t } = useTranslation('announcements');
  const topic = useTopic(post.topicId);
  const announcement = post.announcement;
  if (!announcement || post.deletedAt) return null;
  const mine = myId !== undefined && post.author.id === myId;
  const canReport = mine || topic.data?.abilities.announcementReports === true;
  const { totals } = announcement;
  return (
    <Box
      component="section"
      aria-label={t('marker')}
      sx={{
        mt: 1,
        px: 1.5,
        py: 1,
        borderRadius: 2,
        border: 1,
        borderColor: 'secondary.main',
        borderLeftWidth: 4,
        bgcolor: 'action.hover',
      }}
    >
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
        {/* The mark and its words stay on one line; on a narrow phone the words wrap beside it. */}
        <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
          <PriorityHigh fontSize="small" color="secondary" aria-hidden />
          <Typography component="span" variant="body2" sx={{ fontWeight: 700, minWidth: 0 }}>
            {t('marker')}
          </Typography>
        </Box>
        {announcement.urgent && <UrgentChip />}
        {announcement.dueAt && (
          <Typography component="span" variant="body2" color="text.secondary">
            <time dateTime={announcement.dueAt}>{dueText(announcement.dueAt, t)}</time>
          </Typography>
        )}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mt: 0.75 }}>
        <Typography component="span" variant="body2" sx={{ mr: 'auto' }}>
          {t('progress', { acknowledged: totals.acknowledged, audience: totals.audience })}
        </Typography>
        {post.acknowledgedAt ? (
          <Typography
            component="span"
            variant="body2"
            sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5, fontWeight: 700 }}
          >
            <CheckCircle fontSize="small" color="success" aria-hidden />
            <span>
              {t('acknowledged')}{' '}
              <time dateTime={post.acknowledgedAt} title={fullTime(post.acknowledgedAt)}>
                {shortTime(post.acknowledgedAt)}
              </time>
            </span>
          </Typography>
        ) : (
          !mine && <AcknowledgeButton target={{ postId: post.id, topicId: post.topicId }} />
        )}
        {canReport && (
          <Button size="small" variant="outlined" component={Link} to={reportPath(post)}>
            {t('whoHasRead')}
          </Button>
        )}
      </Box>
    </Box>
  );
}
