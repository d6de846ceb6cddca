import type { ReactionEmoji, ReactionSummary } from '@btalk/contracts';
import { REACTION_EMOJIS } from '@btalk/contracts/constants';
import AddReaction from '@mui/icons-material/AddReactionOutlined';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Popover from '@mui/material/Popover';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lazyOnFirstUse } from '../../../components/lazyOnFirstUse.tsx';

/** The full emoji picker: its chunk (the library and its emoji names) loads on the first open. */
const EmojiPickerPanel = lazyOnFirstUse(() => import('./reactions/EmojiPickerPanel.tsx'));

/** Props of a reaction bar. */
export interface ReactionsProps {
  reactions: ReactionSummary[];
  myId: string | undefined;
  canReact: boolean;
  /** Adds (mine false) or takes back (mine true) the caller's reaction. */
  onToggle: (emoji: ReactionEmoji, mine: boolean) => void;
  /** What is reacted to, for the add button's name ("post" or "comment"). */
  subject: 'post' | 'comment';
}

/**
 * Reactions on a post or comment: counts with who reacted, a toggle per emoji, and the add button:
 * the quick reactions in a row above the full emoji picker (search by name, every emoji).
 */
export function Reactions({ reactions, myId, canReact, onToggle, subject }: ReactionsProps) {
  const { t } = useTranslation('topic');
  const [open, setOpen] = useState(false);
  const anchor = useRef<HTMLButtonElement>(null);
  const mineOf = (r: ReactionSummary) => r.people.some((p) => p.id === myId);
  const mineWith = (emoji: string) => {
    const found = reactions.find((r) => r.emoji === emoji);
    return found ? mineOf(found) : false;
  };
  // Picking an emoji one gave already takes it back, as its chip does.
  const pick = (emoji: string) => {
    setOpen(false);
    onToggle(emoji, mineWith(emoji));
  };
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, alignItems: 'center' }}>
      {reactions
        .filter((r) => r.count > 0)
        .map((r) => {
          const mine = mineOf(r);
          const names = r.people.map((p) => p.displayName).join(', ');
          return (
            <Tooltip key={r.emoji} title={names}>
              <Chip
                size="small"
                variant={mine ? 'filled' : 'outlined'}
                color={mine ? 'primary' : 'default'}
                label={`${r.emoji} ${r.count}`}
                aria-label={t('reactions.summary', { emoji: r.emoji, count: r.count, names })}
                aria-pressed={mine}
                disabled={!canReact}
                onClick={() => onToggle(r.emoji, mine)}
              />
            </Tooltip>
          );
        })}
      {canReact && (
        <>
          <Tooltip title={t(`reactions.add.${subject}`)}>
            <IconButton
              ref={anchor}
              size="small"
              aria-label={t(`reactions.add.${subject}`)}
              onClick={() => setOpen(true)}
              onMouseEnter={EmojiPickerPanel.preload}
              onFocus={EmojiPickerPanel.preload}
            >
              <AddReaction fontSize="small" />
            </IconButton>
          </Tooltip>
          {/* Drawn only while open: every post has one, and a closed popover still costs its hooks. */}
          {open && (
            <Popover
              open
              anchorEl={anchor.current}
              onClose={() => setOpen(false)}
              anchorOrigin={{ vertical: 'top', horizontal: 'left' }}
              transformOrigin={{ vertical: 'bottom', horizontal: 'left' }}
            >
              <Box sx={{ width: { xs: 'calc(100vw - 32px)', sm: 352 }, maxWidth: 352 }}>
                <Box
                  role="group"
                  aria-label={t('reactions.pick')}
                  sx={{ display: 'flex', flexWrap: 'wrap', p: 0.5 }}
                >
                  {REACTION_EMOJIS.map((emoji) => (
                    <IconButton
                      key={emoji}
                      aria-label={t('reactions.react', { emoji })}
                      aria-pressed={mineWith(emoji)}
                      onClick={() => pick(emoji)}
                      sx={{ fontSize: 22, width: 40, height: 40 }}
                    >
                      {emoji}
                    </IconButton>
                  ))}
                </Box>
                <Box sx={{ position: 'relative', minHeight: 380 }}>
                  {/* Behind the picker, which covers it once its code is here. */}
                  <Typography
                    variant="body2"
                    color="text.secondary"
                    sx={{ position: 'absolute', inset: 0, p: 2, textAlign: 'center' }}
                  >
                    {t('reactions.picker.loading')}
                  </Typography>
                  <Box sx={{ position: 'relative' }}>
                    <EmojiPickerPanel onPick={pick} />
                  </Box>
                </Box>
              </Box>
            </Popover>
          )}
        </>
      )}
    </Box>
  );
}
