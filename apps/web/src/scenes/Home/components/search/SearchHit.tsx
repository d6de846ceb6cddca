import type { SearchResult } from '@btalk/contracts';
import AttachFile from '@mui/icons-material/AttachFile';
import Box from '@mui/material/Box';
import ListItemButton from '@mui/material/ListItemButton';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Highlighted } from '../../../../components/Highlighted.tsx';
import { fullTime, shortTime } from '../../../../components/time.ts';

/**
 * Where a hit opens: the topic, or the topic at the post (`#post-<n>`: loaded around it in one
 * request, marked), and for a comment with its comments open on it (`?comment=<id>`).
 */
export function hitLink(hit: SearchResult): string {
  const topic = `/topics/${encodeURIComponent(hit.topicId)}`;
  if (hit.postNumber === null) return topic;
  const comment = hit.commentId ? `?comment=${encodeURIComponent(hit.commentId)}` : '';
  return `${topic}${comment}#post-${hit.postNumber}`;
}

/** One search hit: what and where, who and when, and the snippet with the words marked. */
export function SearchHit({ hit }: { hit: SearchResult }) {
  const { t } = useTranslation('search');
  const title =
    hit.kind === 'topic'
      ? t('topic', { title: hit.topicTitle })
      : t(hit.kind === 'comment' ? 'commentIn' : 'postIn', { title: hit.topicTitle });
  return (
    <ListItemButton component={Link} to={hitLink(hit)} divider sx={{ display: 'block', py: 1.5 }}>
      <Typography sx={{ fontWeight: 500 }} noWrap>
        {title}
        {hit.topicArchived && (
          <Typography component="span" variant="caption" color="text.secondary" sx={{ ml: 1 }}>
            {t('archived')}
          </Typography>
        )}
      </Typography>
      <Typography variant="body2" color="text.secondary" component="div">
        {hit.author && <span>{hit.author.displayName} · </span>}
        <time dateTime={hit.createdAt} title={fullTime(hit.createdAt)}>
          {shortTime(hit.createdAt)}
        </time>
        {hit.hasFile && (
          <AttachFile fontSize="inherit" titleAccess={t('hasFile')} sx={{ ml: 0.5, verticalAlign: '-2px' }} />
        )}
      </Typography>
      <Box component="p" sx={{ m: 0, mt: 0.5, typography: 'body2', overflowWrap: 'anywhere' }}>
        {hit.snippet ? <Highlighted text={hit.snippet} ranges={hit.highlights} /> : t('noText')}
      </Box>
    </ListItemButton>
  );
}
