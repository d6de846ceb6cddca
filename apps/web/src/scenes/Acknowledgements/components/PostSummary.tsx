import type { AnnouncementReport, Post, Topic } from '@btalk/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { dueText } from '../../../components/announcements/dueTime.ts';
import { UrgentChip } from '../../../components/announcements/UrgentChip.tsx';
import { conversationName } from '../../../components/conversationName.ts';
import { fullTime } from '../../../components/time.ts';

/** A post's text as one plain line: Markdown marks and mention tokens reduced to their words. */
function plain(body: string): string {
  return body
    .replace(/@\[([^\]]+)\]\(user:[^)]+\)/g, '@$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`~|-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Which post the report is about: its topic, author and words, when it was marked, and the way back. */
export function PostSummary({
  report,
  post,
  topic,
  myId,
}: {
  report: AnnouncementReport;
  post: Post | undefined;
  topic: Topic | undefined;
  myId: string | undefined;
}) {
  const { t } = useTranslation('announcements');
  const { announcement } = report;
  const text = post ? plain(post.body) : '';
  return (
    // A topic title or a post of one long word (or Thai, without spaces) wraps instead of widening the page.
    <Box sx={{ mb: 3, overflowWrap: 'anywhere' }}>
      {post && topic && (
        <Typography variant="subtitle1" component="p" sx={{ fontWeight: 700 }}>
          {t('report.postBy', { author: post.author.displayName, topic: conversationName(topic, myId) })}
        </Typography>
      )}
      {text && (
        <Typography
          component="blockquote"
          sx={{
            m: 0,
            my: 1,
            pl: 1.5,
            borderLeft: 4,
            borderColor: 'secondary.main',
            display: '-webkit-box',
            WebkitLineClamp: 3,
            WebkitBoxOrient: 'vertical',
            overflow: 'hidden',
          }}
        >
          {text}
        </Typography>
      )}
      <Stack direction="row" sx={{ gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        {announcement.urgent && <UrgentChip />}
        <Typography variant="body2" color="text.secondary">
          {t('report.markedAt', { time: fullTime(announcement.markedAt) })}
          {announcement.dueAt && ` · ${dueText(announcement.dueAt, t)}`}
        </Typography>
        {post && (
          <Button
            size="small"
            component={Link}
            to={`/topics/${encodeURIComponent(report.topicId)}#post-${post.number}`}
          >
            {t('report.backToPost')}
          </Button>
        )}
      </Stack>
    </Box>
  );
}
