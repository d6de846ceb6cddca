import type { PendingAnnouncementList } from '@btalk/contracts';
import PriorityHigh from '@mui/icons-material/PriorityHigh';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { AcknowledgeButton } from '../../../components/announcements/AcknowledgeButton.tsx';
import { dueText } from '../../../components/announcements/dueTime.ts';

/**
 * Home's "Important" list: the important posts I have not acknowledged, urgent first (the server's
 * order), each leading to its post, with its own Acknowledge.
 */
export default function ImportantList({ list }: { list: PendingAnnouncementList }) {
  const { t } = useTranslation('announcements');
  const more = list.total - list.items.length;
  return (
    <Box
      component="section"
      aria-labelledby="important-heading"
      sx={{ mb: 2, p: 1.5, borderRadius: 2, border: 1, borderColor: 'secondary.main', borderLeftWidth: 4 }}
    >
      <Typography
        id="important-heading"
        variant="subtitle1"
        component="h2"
        sx={{ fontWeight: 700, display: 'flex', alignItems: 'center', gap: 0.5 }}
      >
        <PriorityHigh fontSize="small" color="secondary" aria-hidden />
        {t('strip.title')}
      </Typography>
      <List dense disablePadding aria-labelledby="important-heading">
        {list.items.map((item) => {
          const textId = `home-important-${item.postId}`;
          return (
            <ListItem
              key={item.postId}
              disableGutters
              sx={{
                gap: 1,
                alignItems: { xs: 'flex-start', sm: 'center' },
                flexDirection: { xs: 'column', sm: 'row' },
                borderTop: 1,
                borderColor: 'divider',
                py: 1,
              }}
            >
              <Box id={textId} sx={{ flex: 1, minWidth: 0, width: '100%' }}>
                <Link
                  component={RouterLink}
                  to={`/topics/${encodeURIComponent(item.topicId)}#post-${item.number}`}
                  underline="hover"
                  sx={{ fontWeight: 700, display: 'block' }}
                  noWrap
                >
                  {item.urgent && `${t('urgent')} · `}
                  {t('strip.by', { author: item.authorName, topic: item.topicTitle })}
                </Link>
                <Typography variant="body2" noWrap>
                  {item.excerpt}
                </Typography>
                {item.dueAt && (
                  <Typography variant="caption" color="text.secondary" component="p">
                    {dueText(item.dueAt, t)}
                  </Typography>
                )}
              </Box>
              <AcknowledgeButton
                target={{ postId: item.postId, topicId: item.topicId }}
                describedBy={textId}
              />
            </ListItem>
          );
        })}
      </List>
      {more > 0 && (
        <Typography variant="body2" color="text.secondary">
          {t('strip.more', { count: more })}
        </Typography>
      )}
    </Box>
  );
}
