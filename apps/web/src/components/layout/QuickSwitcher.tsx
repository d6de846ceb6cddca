import Forum from '@mui/icons-material/Forum';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { withTexts } from '../../i18n/index.ts';
import { lazyOnFirstUse } from '../lazyOnFirstUse.tsx';
import { usePeopleSearch } from '../PeoplePicker.tsx';
import { PersonAvatar } from '../PersonAvatar.tsx';
import type { CardPerson } from '../PersonCard/PersonButton.tsx';
import { useTopicFinder } from '../useTopicFinder.ts';

// A person opens their profile card, whose code loads when the first person is picked.
const PersonCard = lazyOnFirstUse(() => withTexts(import('../PersonCard/PersonCard.tsx'), 'personCard'));

/** Something to jump to. */
type Choice =
  | { kind: 'topic'; id: string; title: string }
  | { kind: 'person'; id: string; displayName: string; email: string; detail: string };

/** One option of the list: ARIA's listbox pattern, the field keeps the focus. */
function Option({
  id,
  selected,
  onPick,
  onPoint,
  children,
}: {
  id: string;
  selected: boolean;
  onPick: () => void;
  onPoint: () => void;
  children: ReactNode;
}) {
  return (
    <Box
      id={id}
      role="option"
      aria-selected={selected}
      onClick={onPick}
      onMouseMove={onPoint}
      sx={{
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        px: 1.5,
        py: 1,
        borderRadius: 1,
        cursor: 'pointer',
        bgcolor: selected ? 'action.selected' : 'transparent',
      }}
    >
      {children}
    </Box>
  );
}

/**
 * "Jump to" (Ctrl+K): one field; the topics (conversations included) and the people that match, or
 * my latest topics before anything is typed. ↑ and ↓ choose, Enter opens, Escape closes. A topic
 * (a conversation is one) opens; a person's profile card opens over their option (its "Message"
 * leads on, and any new page closes the switcher).
 */
export default function QuickSwitcher({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('search');
  const navigate = useNavigate();
  const ids = useId();
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [card, setCard] = useState<{ person: CardPerson; anchor: HTMLElement } | null>(null);
  const { pathname } = useLocation();
  const typed = text.trim() !== '';
  const topics = useTopicFinder(text, 6, open);
  const people = usePeopleSearch(text, open && typed);

  useEffect(() => {
    if (open) {
      setText('');
      setActive(0);
      setCard(null);
    }
  }, [open]);
  // Somewhere else now (the card's "Message" opened a conversation): the switcher has done its job.
  const lastPath = useRef(pathname);
  useEffect(() => {
    if (pathname === lastPath.current) return;
    lastPath.current = pathname;
    onClose();
  }, [pathname, onClose]);

  const topicChoices: Choice[] = (topics.data ?? []).map((topic) => ({ kind: 'topic', ...topic }));
  const personChoices: Choice[] = typed
    ? (people.data?.items ?? []).slice(0, 5).map((u) => ({
        kind: 'person',
        id: u.id,
        displayName: u.displayName,
        email: u.email,
        detail: [u.department, u.email].filter(Boolean).join(' · '),
      }))
    : [];
  const choices = [...topicChoices, ...personChoices];
  const current = Math.min(active, Math.max(0, choices.length - 1));
  const optionId = (i: number) => `${ids}-option-${i}`;

  useEffect(() => {
    document.getElementById(`${ids}-option-${current}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [current, ids]);

  const pick = (choice: Choice | undefined, i: number) => {
    if (!choice) return;
    if (choice.kind === 'person') {
      const anchor = document.getElementById(optionId(i));
      if (anchor) setCard({ person: { id: choice.id, displayName: choice.displayName }, anchor });
      return;
    }
    onClose();
    navigate(`/topics/${encodeURIComponent(choice.id)}`);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    // Keys that finish an input method's composition are the composition's, not the list's.
    if (e.nativeEvent.isComposing) return;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (choices.length === 0) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((current + step + choices.length) % choices.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      pick(choices[current], current);
    }
  };
  const loading = topics.isFetching || (typed && people.isFetching);

  const group = (label: string, from: number, items: Choice[]) =>
    items.length > 0 && (
      <Box role="group" aria-labelledby={`${ids}-${label}`} sx={{ mb: 1 }}>
        <Typography
          id={`${ids}-${label}`}
          variant="overline"
          color="text.secondary"
          role="presentation"
          sx={{ px: 1.5 }}
        >
          {t(`switcher.${label}`)}
        </Typography>
        {items.map((choice, n) => {
          const i = from + n;
          return (
            <Option
              key={`${choice.kind}-${choice.id}`}
              id={optionId(i)}
              selected={i === current}
              onPick={() => pick(choice, i)}
              onPoint={() => setActive(i)}
            >
              {choice.kind === 'topic' ? (
                <>
                  <Forum color="action" aria-hidden />
                  <Typography noWrap>{choice.title}</Typography>
                </>
              ) : (
                <>
                  <PersonAvatar person={choice} size={28} />
                  <Box sx={{ minWidth: 0 }}>
                    <Typography noWrap>{choice.displayName}</Typography>
                    <Typography variant="body2" color="text.secondary" noWrap>
                      {choice.detail}
                    </Typography>
                  </Box>
                </>
              )}
            </Option>
          );
        })}
      </Box>
    );

  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={`${ids}-title`}
      fullWidth
      maxWidth="sm"
      sx={{ '& .MuiDialog-container': { alignItems: 'flex-start' } }}
    >
      <DialogTitle id={`${ids}-title`}>{t('switcher.title')}</DialogTitle>
      <DialogContent>
        <TextField
          autoFocus
          fullWidth
          margin="dense"
          label={t('switcher.label')}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          slotProps={{
            htmlInput: {
              role: 'combobox',
              'aria-autocomplete': 'list',
              'aria-expanded': choices.length > 0,
              'aria-controls': `${ids}-list`,
              'aria-activedescendant': choices.length > 0 ? optionId(current) : undefined,
              'aria-describedby': `${ids}-hint`,
              autoComplete: 'off',
            },
          }}
        />
        <Typography id={`${ids}-hint`} variant="caption" color="text.secondary">
          {t('switcher.hint')}
        </Typography>
        <Box
          id={`${ids}-list`}
          role="listbox"
          aria-label={t('switcher.title')}
          aria-busy={loading}
          sx={{ mt: 1, maxHeight: '50vh', overflowY: 'auto' }}
        >
          {group(typed ? 'topics' : 'recent', 0, topicChoices)}
          {group('people', topicChoices.length, personChoices)}
        </Box>
        {choices.length === 0 && !loading && (
          <Typography role="status" color="text.secondary" sx={{ py: 1 }}>
            {typed ? t('switcher.none', { q: text.trim() }) : ''}
          </Typography>
        )}
      </DialogContent>
      {card && <PersonCard person={card.person} anchorEl={card.anchor} onClose={() => setCard(null)} />}
    </Dialog>
  );
}
