import type { Topic, TopicNotificationLevel } from '@btalk/contracts';
import Check from '@mui/icons-material/Check';
import Forum from '@mui/icons-material/Forum';
import Group from '@mui/icons-material/Group';
import Lock from '@mui/icons-material/Lock';
import MoreVert from '@mui/icons-material/MoreVert';
import NotificationsOff from '@mui/icons-material/NotificationsOff';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Fragment, memo, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { queryKeys } from '../../../api/queryKeys.ts';
import { isConversation, otherParticipants } from '../../../components/conversationName.ts';
import { Markdown } from '../../../components/Markdown.tsx';
import { PersonButton } from '../../../components/PersonCard/PersonButton.tsx';
import { useServices } from '../../../services.tsx';
import { EditTopicDialog } from './EditTopicDialog.tsx';
import { MembersDialog } from './MembersDialog.tsx';

/** Puts the focus in the composer's message box (the "Write a post" link, the `C` key). */
export function focusComposer(): boolean {
  const box = document.querySelector<HTMLTextAreaElement>('#composer textarea:not([aria-hidden])');
  box?.focus();
  return box !== null;
}

/** The choices of how much of a topic notifies the person, in the menu's order. */
const LEVELS: TopicNotificationLevel[] = ['all', 'mentions', 'muted'];

/**
 * The topic's header: title, members, and its menu (edit, archive, members, follow, leave, and how
 * much of the topic notifies the person: all new posts, mentions only, muted). Memoised, as the other
 * parts of the topic page: they draw again only when their own data changes.
 */
export const TopicHeader = memo(function TopicHeader({
  topic,
  myId,
}: {
  topic: Topic;
  myId: string | undefined;
}) {
  const { t } = useTranslation('topic');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const anchor = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Opening a topic takes the focus to its heading (a screen reader starts there; the next Tab is
  // "Write a post"), unless a `#post-<n>` link gives it to that post.
  useEffect(() => {
    if (!/^#post-/.test(window.location.hash)) heading.current?.focus({ preventScroll: true });
  }, []);
  const [menu, setMenu] = useState(false);
  const [dialog, setDialog] = useState<'edit' | 'members' | null>(null);
  const [showDescription, setShowDescription] = useState(false);
  const put = (updated: Topic) => {
    queryClient.setQueryData(queryKeys.topics.detail(topic.id), updated);
    void queryClient.invalidateQueries({ queryKey: queryKeys.topics.lists() });
  };
  const archive = useMutation({
    mutationFn: (archived: boolean) => api.topics.archive(topic.id, archived),
    onSuccess: put,
  });
  const follow = useMutation({
    mutationFn: (following: boolean) => api.topics.follow(topic.id, following),
    onSuccess: put,
  });
  const level = useMutation({
    mutationFn: (chosen: TopicNotificationLevel) => api.topics.setNotificationLevel(topic.id, chosen),
    onSuccess: put,
  });
  const leave = useMutation({
    mutationFn: () => api.topics.removeMember(topic.id, myId ?? ''),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.topics.all });
      void navigate('/');
    },
  });
  const act = (action: () => void) => () => {
    setMenu(false);
    action();
  };
  const a = topic.abilities;
  return (
    <Box sx={{ position: 'relative', px: { xs: 1, sm: 2 }, py: 1, borderBottom: 1, borderColor: 'divider' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        {topic.coverEmoji && (
          <Box aria-hidden sx={{ fontSize: 28 }}>
            {topic.coverEmoji}
          </Box>
        )}
        <Typography
          ref={heading}
          tabIndex={-1}
          variant="h5"
          component="h1"
          sx={{ fontWeight: 700, flexGrow: 1, minWidth: 0, overflowWrap: 'anywhere' }}
        >
          {topic.visibility === 'members' && (
            <Lock titleAccess={t('visibility.members')} sx={{ mr: 0.5, verticalAlign: '-3px' }} />
          )}
          {isConversation(topic) ? (
            <>
              <Forum titleAccess={t('direct.label')} sx={{ mr: 0.5, verticalAlign: '-3px' }} />
              {/* A direct conversation is called by its other people: each name opens their card. */}
              {otherParticipants(topic, myId).map((person, i) => (
                <Fragment key={person.id}>
                  {i > 0 && ', '}
                  <PersonButton person={person}>{person.displayName}</PersonButton>
                </Fragment>
              ))}
            </>
          ) : (
            topic.title
          )}
        </Typography>
        {/* The composer, one Tab away from the heading: the posts' buttons come after it otherwise. */}
        {topic.abilities.post && (
          // biome-ignore lint/a11y/useValidAnchor: a skip link, read as a link to a place in the page; the focus is moved by hand so that the address keeps its `#post-<n>`.
          <a
            href="#composer"
            // Hidden until focused, as the layout's "Skip to content" (index.html styles it).
            className="skip-link"
            onClick={(event) => {
              event.preventDefault();
              focusComposer();
            }}
          >
            {t('composer.skipTo')}
          </a>
        )}
        <Button
          size="small"
          startIcon={<Group />}
          onClick={() => setDialog('members')}
          aria-label={t('members.open', { count: topic.memberCount })}
        >
          {topic.memberCount}
        </Button>
        <IconButton ref={anchor} aria-label={t('menu.label')} onClick={() => setMenu(true)}>
          <MoreVert />
        </IconButton>
      </Box>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        {topic.archivedAt && <Chip size="small" color="warning" label={t('archived')} />}
        {topic.notificationLevel === 'muted' && (
          <Chip size="small" icon={<NotificationsOff />} label={t('notifications.mutedChip')} />
        )}
        {topic.description && (
          <Button size="small" onClick={() => setShowDescription((s) => !s)} aria-expanded={showDescription}>
            {showDescription ? t('description.hide') : t('description.show')}
          </Button>
        )}
      </Box>
      <Collapse in={showDescription}>
        <Box sx={{ color: 'text.secondary', maxHeight: 240, overflowY: 'auto' }}>
          <Markdown text={topic.description} />
        </Box>
      </Collapse>
      <Menu anchorEl={anchor.current} open={menu} onClose={() => setMenu(false)}>
        {a.edit && <MenuItem onClick={act(() => setDialog('edit'))}>{t('menu.edit')}</MenuItem>}
        {a.archive && (
          <MenuItem onClick={act(() => archive.mutate(topic.archivedAt === null))}>
            {topic.archivedAt ? t('menu.unarchive') : t('menu.archive')}
          </MenuItem>
        )}
        <MenuItem onClick={act(() => setDialog('members'))}>{t('menu.members')}</MenuItem>
        {a.follow && (
          <MenuItem onClick={act(() => follow.mutate(!topic.following))}>
            {topic.following ? t('menu.unfollow') : t('menu.follow')}
          </MenuItem>
        )}
        {a.leave && myId && <MenuItem onClick={act(() => leave.mutate())}>{t('menu.leave')}</MenuItem>}
        <Divider />
        <ListSubheader sx={{ lineHeight: 2.5 }}>{t('notifications.label')}</ListSubheader>
        {LEVELS.map((choice) => {
          const chosen = (level.isPending ? level.variables : topic.notificationLevel) === choice;
          return (
            <MenuItem
              key={choice}
              role="menuitemradio"
              aria-checked={chosen}
              onClick={act(() => level.mutate(choice))}
            >
              <ListItemIcon>{chosen && <Check fontSize="small" />}</ListItemIcon>
              {t(`notifications.${choice}`)}
            </MenuItem>
          );
        })}
      </Menu>
      {dialog === 'edit' && <EditTopicDialog topic={topic} onClose={() => setDialog(null)} />}
      {dialog === 'members' && <MembersDialog topic={topic} onClose={() => setDialog(null)} />}
    </Box>
  );
});
