import type { Post } from '@btalk/contracts';
import { MAX_POST_LENGTH } from '@btalk/contracts/constants';
import AttachFile from '@mui/icons-material/AttachFile';
import PriorityHigh from '@mui/icons-material/PriorityHigh';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type ClipboardEvent,
  type DragEvent,
  memo,
  type RefObject,
  useEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { upsertPost } from '../../../api/postCache.ts';
import { useRealtime } from '../../../realtime/context.ts';
import { useServices } from '../../../services.tsx';
import { useDraft } from './mentions/drafts.ts';
import { MentionInput } from './mentions/MentionInput.tsx';
import { EMPTY_DRAFT, mentionIds, toMarkup } from './mentions/mentionText.ts';
import { useAttachmentUploads } from './useAttachmentUploads.ts';
import { retryLostAnswer } from './usePostActions.ts';

/**
 * Keeps the composer in view while one writes in it and the on-screen keyboard opens or the screen
 * turns. With `interactive-widget=resizes-content` (index.html) the page shrinks to what is left
 * above the keyboard; a call-tree banner above the topic can then push the composer below the
 * fold, so the page is scrolled to bring the focused field back (browsers do it only sometimes).
 */
function useKeptAboveKeyboard(form: RefObject<HTMLFormElement | null>) {
  useEffect(() => {
    let frame = 0;
    const keep = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const focused = document.activeElement;
        if (focused instanceof HTMLElement && form.current?.contains(focused)) {
          focused.scrollIntoView({ block: 'nearest' });
        }
      });
    };
    const viewport = window.visualViewport;
    viewport?.addEventListener('resize', keep);
    window.addEventListener('resize', keep);
    return () => {
      cancelAnimationFrame(frame);
      viewport?.removeEventListener('resize', keep);
      window.removeEventListener('resize', keep);
    };
  }, [form]);
}

/**
 * The composer: Markdown text (Enter sends, Shift+Enter new line), files, `@` mentions shown as
 * names, a draft per topic and person kept until sent. Memoised: the topic page draws again as its
 * data arrives, and the text field measures its height (a forced layout) each time it is drawn.
 */
export const Composer = memo(function Composer({
  topicId,
  myId,
  canAnnounce = false,
  onPosted,
}: {
  topicId: string;
  /** The signed-in person: drafts are theirs (undefined until their profile loads). */
  myId: string | undefined;
  /** The person may mark their posts here important (the toggle that sends one as important). */
  canAnnounce?: boolean;
  onPosted: (post: Post) => void;
}) {
  const { t } = useTranslation(['topic', 'announcements']);
  // Send as important: posted, then marked with the request's defaults (changed later in its menu).
  const [important, setImportant] = useState(false);
  const { api } = useServices();
  const queryClient = useQueryClient();
  const realtime = useRealtime();
  const [draft, setDraft] = useDraft(myId, `topic:${topicId}`);
  const [dragging, setDragging] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  // Kept until the post is saved: a second press after a lost answer gives the same post, not two.
  const clientId = useRef<string | null>(null);
  const files = useAttachmentUploads(topicId);

  const form = useRef<HTMLFormElement>(null);
  useKeptAboveKeyboard(form);

  // Drafts were once kept per topic for whoever used the browser: never show one to someone else.
  useEffect(() => localStorage.removeItem(`btalk_draft:${topicId}`), [topicId]);

  const send = useMutation({
    retry: retryLostAnswer,
    mutationFn: () => {
      clientId.current ??= crypto.randomUUID();
      return api.posts.create(topicId, {
        clientId: clientId.current,
        body: toMarkup(draft),
        mentions: mentionIds(draft),
        attachmentIds: files.attachmentIds,
      });
    },
    onSuccess: (post) => {
      clientId.current = null;
      setDraft(EMPTY_DRAFT);
      files.clear();
      upsertPost(queryClient, post);
      onPosted(post);
      if (important) {
        setImportant(false);
        markImportant.mutate(post.id);
      }
    },
  });
  // The post is saved either way; a refusal here opens the error dialog, and the menu can try again.
  const markImportant = useMutation({
    mutationFn: (postId: string) =>
      api.announcements.mark(postId, { urgent: false, dueAt: null, remindAfterMinutes: null }),
    onSuccess: (post) => upsertPost(queryClient, post),
  });

  const canSend =
    (draft.text.trim() !== '' || files.attachmentIds.length > 0) && !files.busy && !send.isPending;
  const submit = () => {
    if (canSend) send.mutate();
  };
  const onPaste = (event: ClipboardEvent) => {
    const pasted = Array.from(event.clipboardData.files);
    if (pasted.length > 0) {
      event.preventDefault();
      files.add(pasted);
    }
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    files.add(Array.from(event.dataTransfer.files));
  };

  return (
    <Box
      ref={form}
      component="form"
      id="composer"
      aria-label={t('composer.label')}
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      sx={{
        position: 'relative',
        p: 1,
        borderTop: 1,
        borderColor: 'divider',
        bgcolor: dragging ? 'action.hover' : 'background.paper',
        outline: dragging ? '2px dashed' : 'none',
        outlineColor: 'primary.main',
      }}
    >
      {files.uploads.length > 0 && (
        <Box
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5, mb: 1 }}
          aria-label={t('composer.files')}
          role="list"
        >
          {files.uploads.map((u) => (
            <Chip
              role="listitem"
              key={u.key}
              size="small"
              color={u.status === 'failed' ? 'error' : 'default'}
              // A refusal is a whole sentence: it wraps rather than being cut off.
              sx={
                u.status === 'failed'
                  ? { height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.5 } }
                  : undefined
              }
              label={
                u.status === 'uploading'
                  ? t('composer.uploading', { name: u.file.name })
                  : u.status === 'failed'
                    ? t('composer.uploadFailed', { name: u.file.name, reason: u.error })
                    : u.file.name
              }
              onDelete={() => files.remove(u.key)}
            />
          ))}
        </Box>
      )}
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-end' }}>
        <Tooltip title={t('composer.attach')}>
          <IconButton aria-label={t('composer.attach')} onClick={() => fileInput.current?.click()}>
            <AttachFile />
          </IconButton>
        </Tooltip>
        {canAnnounce && (
          <Tooltip title={t('announcements:composer.importantHelp')}>
            <IconButton
              aria-label={t('announcements:composer.important')}
              aria-pressed={important}
              color={important ? 'secondary' : 'default'}
              onClick={() => setImportant((on) => !on)}
            >
              <PriorityHigh />
            </IconButton>
          </Tooltip>
        )}
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          data-testid="composer-file-input"
          onChange={(e) => {
            files.add(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
        <MentionInput
          label={t('composer.message')}
          placeholder={t('composer.placeholder')}
          draft={draft}
          onDraftChange={(next) => {
            setDraft(next);
            clientId.current = null;
          }}
          onTyped={(text) => text && realtime?.client.typing(`topic:${topicId}`)}
          onEnter={submit}
          onPaste={onPaste}
          maxLength={MAX_POST_LENGTH}
        />
        <Button type="submit" variant="contained" disabled={!canSend} loading={send.isPending}>
          {t('composer.post')}
        </Button>
      </Box>
    </Box>
  );
});
