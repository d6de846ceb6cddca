import type { Post, User } from '@btalk/contracts';
import { MAX_POST_LENGTH } from '@btalk/contracts/constants';
import AttachFile from '@mui/icons-material/AttachFile';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  type ClipboardEvent,
  type DragEvent,
  type KeyboardEvent,
  memo,
  useEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { upsertPost } from '../../../api/postCache.ts';
import { usePeopleSearch } from '../../../components/PeoplePicker.tsx';
import { useRealtime } from '../../../realtime/context.ts';
import { useServices } from '../../../services.tsx';
import { MentionMenu, mentionAt, mentionToken } from './MentionMenu.tsx';
import { useAttachmentUploads } from './useAttachmentUploads.ts';
import { retryLostAnswer } from './usePostActions.ts';

const draftKey = (topicId: string) => `btalk_draft:${topicId}`;

/**
 * The composer: Markdown text (Enter sends, Shift+Enter new line), files, `@` mentions, a draft per
 * topic. Memoised: the topic page draws again as its data arrives, and the text field measures its
 * height (a forced layout) each time it is drawn.
 */
export const Composer = memo(function Composer({
  topicId,
  onPosted,
}: {
  topicId: string;
  onPosted: (post: Post) => void;
}) {
  const { t } = useTranslation('topic');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const realtime = useRealtime();
  const [text, setText] = useState(() => localStorage.getItem(draftKey(topicId)) ?? '');
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const [dragging, setDragging] = useState(false);
  // Escape closes the people list until the caret moves.
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  // Kept until the post is saved: a second press after a lost answer gives the same post, not two.
  const clientId = useRef<string | null>(null);
  const files = useAttachmentUploads(topicId);

  useEffect(() => {
    if (text) localStorage.setItem(draftKey(topicId), text);
    else localStorage.removeItem(draftKey(topicId));
  }, [text, topicId]);

  const mention = dismissedAt === caret ? null : mentionAt(text, caret);
  const people = usePeopleSearch(mention?.query ?? '', mention !== null);
  const found = mention ? (people.data?.items ?? []).slice(0, 8) : [];

  const send = useMutation({
    retry: retryLostAnswer,
    mutationFn: () => {
      clientId.current ??= crypto.randomUUID();
      return api.posts.create(topicId, {
        clientId: clientId.current,
        body: text,
        mentions: [],
        attachmentIds: files.attachmentIds,
      });
    },
    onSuccess: (post) => {
      clientId.current = null;
      setText('');
      files.clear();
      upsertPost(queryClient, post);
      onPosted(post);
    },
  });

  const canSend = (text.trim() !== '' || files.attachmentIds.length > 0) && !files.busy && !send.isPending;
  const submit = () => {
    if (canSend) send.mutate();
  };
  const pick = (person: User) => {
    if (!mention) return;
    const token = `${mentionToken(person)} `;
    const next = text.slice(0, mention.start) + token + text.slice(caret);
    const at = mention.start + token.length;
    setText(next);
    setCaret(at);
    requestAnimationFrame(() => input.current?.setSelectionRange(at, at));
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (found.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : found.length - 1;
        setActive((i) => (i + step) % found.length);
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        pick(found[Math.min(active, found.length - 1)]!);
        return;
      }
      if (event.key === 'Escape') {
        setDismissedAt(caret);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      submit();
    }
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
      component="form"
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
      <MentionMenu people={found} active={Math.min(active, Math.max(0, found.length - 1))} onPick={pick} />
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
        <TextField
          inputRef={input}
          fullWidth
          multiline
          maxRows={8}
          size="small"
          label={t('composer.message')}
          placeholder={t('composer.placeholder')}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (e.target.value) realtime?.client.typing(`topic:${topicId}`);
            setCaret(e.target.selectionStart ?? e.target.value.length);
            setActive(0);
            clientId.current = null;
          }}
          onSelect={(e) => setCaret((e.target as HTMLTextAreaElement).selectionStart ?? 0)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          slotProps={{
            htmlInput: {
              maxLength: MAX_POST_LENGTH,
              'aria-autocomplete': 'list',
              'aria-expanded': found.length > 0,
            },
          }}
        />
        <Button type="submit" variant="contained" disabled={!canSend} loading={send.isPending}>
          {t('composer.post')}
        </Button>
      </Box>
    </Box>
  );
});
