import Avatar from '@mui/material/Avatar';
import AvatarGroup from '@mui/material/AvatarGroup';
import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { initials } from '../../../components/initials.ts';
import { useRoomPresence, useTyping } from '../../../realtime/hooks.ts';

/** Under the topic header: who else is looking at the topic now, and who is typing. Memoised (see TopicHeader). */
export const TopicLive = memo(function TopicLive({ topicId }: { topicId: string }) {
  const { t } = useTranslation('topic');
  const room = `topic:${topicId}`;
  const here = useRoomPresence(room);
  const { typists } = useTyping(room);
  if (here.length === 0 && typists.length === 0) return null;
  const typing =
    typists.length === 0
      ? ''
      : typists.length === 1
        ? t('live.typingOne', { name: typists[0] })
        : t('live.typingMany', { names: typists.join(', ') });
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1,
        px: { xs: 1, sm: 2 },
        py: 0.5,
        borderBottom: 1,
        borderColor: 'divider',
        minHeight: 36,
      }}
    >
      {here.length > 0 && (
        <Box
          role="group"
          aria-label={t('live.here', { names: here.map((p) => p.displayName).join(', ') })}
          sx={{ display: 'flex', alignItems: 'center' }}
        >
          <AvatarGroup max={5} sx={{ '& .MuiAvatar-root': { width: 24, height: 24, fontSize: 11 } }}>
            {here.map((p) => (
              <Tooltip key={p.userId} title={p.displayName}>
                <Avatar alt={p.displayName} sx={{ bgcolor: 'secondary.main' }}>
                  {initials(p.displayName)}
                </Avatar>
              </Tooltip>
            ))}
          </AvatarGroup>
        </Box>
      )}
      <Typography
        variant="caption"
        color="text.secondary"
        role="status"
        aria-live="polite"
        sx={{ fontStyle: 'italic', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {typing}
      </Typography>
    </Box>
  );
});
