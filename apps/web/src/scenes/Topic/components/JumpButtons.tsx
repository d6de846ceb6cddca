import KeyboardDoubleArrowDown from '@mui/icons-material/KeyboardDoubleArrowDown';
import KeyboardDoubleArrowUp from '@mui/icons-material/KeyboardDoubleArrowUp';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useTranslation } from 'react-i18next';

const buttonStyle = {
  position: 'absolute',
  right: 12,
  zIndex: 1,
  bgcolor: 'background.paper',
  boxShadow: 2,
  '&:hover': { bgcolor: 'background.paper' },
} as const;

/**
 * "Jump to the first post" and "Jump to the latest" over the list's corner, as chat apps put them:
 * each loads its end of the topic in one request when it is not loaded. They float, so showing or
 * hiding them never moves a post.
 */
export function JumpButtons({
  showFirst,
  showLatest,
  onJumpFirst,
  onJumpLatest,
}: {
  showFirst: boolean;
  showLatest: boolean;
  onJumpFirst: () => void;
  onJumpLatest: () => void;
}) {
  const { t } = useTranslation('topic');
  return (
    <>
      {showFirst && (
        <Tooltip title={t('posts.jumpFirst')} placement="left">
          <IconButton
            size="small"
            aria-label={t('posts.jumpFirst')}
            onClick={onJumpFirst}
            sx={{ ...buttonStyle, top: 8 }}
          >
            <KeyboardDoubleArrowUp fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
      {showLatest && (
        <Tooltip title={t('posts.jumpLatest')} placement="left">
          <IconButton
            size="small"
            aria-label={t('posts.jumpLatest')}
            onClick={onJumpLatest}
            sx={{ ...buttonStyle, bottom: 8 }}
          >
            <KeyboardDoubleArrowDown fontSize="small" />
          </IconButton>
        </Tooltip>
      )}
    </>
  );
}
