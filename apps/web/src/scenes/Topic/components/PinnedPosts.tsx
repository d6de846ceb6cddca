import type { Post } from '@btalk/contracts';
import PushPin from '@mui/icons-material/PushPin';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import Typography from '@mui/material/Typography';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';

/** A post's text as one plain line: Markdown marks and mention tokens reduced to their words. */
export function excerpt(body: string): string {
  return body
    .replace(/@\[([^\]]+)\]\(user:[^)]+\)/g, '@$1')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`~|-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The topic's pinned posts, listed first above the chat (as the topic owner pinned them, newest pin
 * first). Choosing one scrolls the chat to it when it is loaded. Memoised (see TopicHeader).
 */
export const PinnedPosts = memo(function PinnedPosts({
  pinned,
  onOpen,
}: {
  pinned: Post[];
  onOpen: (post: Post) => void;
}) {
  const { t } = useTranslation('topic');
  // Only pinned ones: important posts the server may list with them have their own strip.
  const shown = pinned.filter((p) => !p.deletedAt && p.pinnedAt);
  if (shown.length === 0) return null;
  return (
    <Box
      component="section"
      aria-label={t('pinnedList.label')}
      sx={{
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: 'action.hover',
        maxHeight: 132,
        overflowY: 'auto',
      }}
    >
      {shown.map((post) => (
        <ButtonBase
          key={post.id}
          onClick={() => onOpen(post)}
          sx={{ display: 'flex', gap: 1, width: '100%', justifyContent: 'flex-start', px: 2, py: 0.75 }}
        >
          <PushPin fontSize="small" color="secondary" aria-hidden />
          <Typography variant="body2" noWrap sx={{ textAlign: 'left', minWidth: 0 }}>
            <Box component="span" sx={{ fontWeight: 700, mr: 1 }}>
              {post.author.displayName}
            </Box>
            {excerpt(post.body)}
          </Typography>
        </ButtonBase>
      ))}
    </Box>
  );
});
