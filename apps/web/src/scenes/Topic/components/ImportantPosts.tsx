import type { Post } from '@btalk/contracts';
import PriorityHigh from '@mui/icons-material/PriorityHigh';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import { memo, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AcknowledgeButton } from '../../../components/announcements/AcknowledgeButton.tsx';
import { dueText } from '../../../components/announcements/dueTime.ts';
import { usePendingAnnouncements } from '../../../components/announcements/useAnnouncements.ts';
import { excerpt } from './PinnedPosts.tsx';
import { asksMe } from './PostAnnouncement.tsx';

/** One important post waiting for the reader's acknowledgement, as the strip shows it. */
export interface ImportantItem {
  postId: string;
  topicId: string;
  number: number;
  authorName: string;
  excerpt: string;
  urgent: boolean;
  dueAt: string | null;
}

/**
 * The topic's important posts the reader has not acknowledged: the server's pending list for this
 * topic, and any loaded post that asks them (one marked a moment ago, or beyond the list's first 20),
 * urgent first, then by due time.
 */
export function importantItems(
  topicId: string,
  pending: ImportantItem[],
  posts: Post[],
  myId: string | undefined,
): ImportantItem[] {
  const byId = new Map<string, ImportantItem>();
  for (const item of pending) if (item.topicId === topicId) byId.set(item.postId, item);
  for (const post of posts) {
    if (!post.announcement) continue;
    if (!asksMe(post, myId)) {
      // The loaded post knows better: acknowledged, deleted or unmarked since the list came.
      byId.delete(post.id);
      continue;
    }
    byId.set(post.id, {
      postId: post.id,
      topicId: post.topicId,
      number: post.number,
      authorName: post.author.displayName,
      excerpt: excerpt(post.body),
      urgent: post.announcement.urgent,
      dueAt: post.announcement.dueAt,
    });
  }
  const due = (item: ImportantItem) => (item.dueAt ? Date.parse(item.dueAt) : Number.POSITIVE_INFINITY);
  return [...byId.values()].sort(
    (a, b) => Number(b.urgent) - Number(a.urgent) || due(a) - due(b) || b.number - a.number,
  );
}

/**
 * Important posts the reader is asked to acknowledge, kept at the top of the topic until they do:
 * each opens its post, and has its own Acknowledge. Memoised (see TopicHeader).
 */
export const ImportantPosts = memo(function ImportantPosts({
  topicId,
  posts,
  myId,
  onOpen,
}: {
  topicId: string;
  /** The loaded posts, and the first page's pinned ones. */
  posts: Post[];
  myId: string | undefined;
  onOpen: (number: number) => void;
}) {
  const { t } = useTranslation('announcements');
  const pending = usePendingAnnouncements();
  const items = useMemo(
    () => importantItems(topicId, pending.data?.items ?? [], posts, myId),
    [topicId, pending.data, posts, myId],
  );
  if (items.length === 0) return null;
  return (
    <Box
      component="section"
      aria-label={t('strip.topicLabel')}
      sx={{
        borderBottom: 1,
        borderColor: 'divider',
        borderLeft: 4,
        borderLeftColor: 'secondary.main',
        maxHeight: { xs: 150, sm: 180 },
        overflowY: 'auto',
      }}
    >
      {items.map((item) => {
        const textId = `important-${item.postId}`;
        return (
          <Box
            key={item.postId}
            sx={{ display: 'flex', alignItems: 'center', gap: 1, px: { xs: 1, sm: 2 }, py: 0.75 }}
          >
            <ButtonBase
              onClick={() => onOpen(item.number)}
              sx={{ display: 'flex', gap: 1, flex: 1, minWidth: 0, justifyContent: 'flex-start' }}
            >
              <PriorityHigh fontSize="small" color="secondary" aria-hidden />
              <Box component="span" sx={{ display: 'block', minWidth: 0, textAlign: 'left' }}>
                <Typography id={textId} component="span" variant="body2" noWrap sx={{ display: 'block' }}>
                  <Box component="span" sx={{ fontWeight: 700, mr: 1 }}>
                    {t('important')}
                    {item.urgent && ` · ${t('urgent')}`}: {item.authorName}
                  </Box>
                  {item.excerpt}
                </Typography>
                {item.dueAt && (
                  <Typography
                    variant="caption"
                    color="text.secondary"
                    component="span"
                    noWrap
                    sx={{ display: 'block' }}
                  >
                    {dueText(item.dueAt, t)}
                  </Typography>
                )}
              </Box>
            </ButtonBase>
            <AcknowledgeButton target={{ postId: item.postId, topicId: item.topicId }} describedBy={textId} />
          </Box>
        );
      })}
    </Box>
  );
});
