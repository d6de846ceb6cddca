import type { User } from '@btalk/contracts';
import Box from '@mui/material/Box';
import { alpha } from '@mui/material/styles';
import TextField from '@mui/material/TextField';
import {
  type ClipboardEvent,
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  useCallback,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { usePeopleSearch } from '../../../../components/PeoplePicker.tsx';
import { MentionMenu, mentionOptionId } from '../MentionMenu.tsx';
import { applyEdit, insertMention, type MentionDraft, mentionEnd, mentionQueryAt } from './mentionText.ts';

/** What a parent may do to the text field: focus it. */
export interface MentionInputHandle {
  focus: () => void;
}

/** Props of a text field with `@` mentions. */
export interface MentionInputProps {
  label: string;
  placeholder?: string;
  draft: MentionDraft;
  onDraftChange: (draft: MentionDraft) => void;
  /** Enter without Shift (the people list closed): sends. Without it, Enter makes a new line. */
  onEnter?: () => void;
  /** After each change of the text by the person, with the new text (for "typing..."). */
  onTyped?: (text: string) => void;
  onPaste?: (event: ClipboardEvent) => void;
  maxLength: number;
  maxRows?: number;
  minRows?: number;
  autoFocus?: boolean;
  ref?: Ref<MentionInputHandle>;
}

/** How many people the list shows. */
const SHOWN = 8;

/**
 * The text, drawn behind the text area with each picked name marked: the text area shows `@Name`
 * as plain letters, this draws the mark under them (a text area cannot style parts of its text).
 */
function Highlights({ draft, textarea }: { draft: MentionDraft; textarea: HTMLTextAreaElement | null }) {
  const box = useRef<HTMLDivElement>(null);
  // Placed and sized over the text area's text, with its font and padding, after every draw (the
  // text area grows with its text); and scrolled with it.
  useLayoutEffect(() => {
    const el = box.current;
    if (!el || !textarea) return;
    const parent = el.offsetParent?.getBoundingClientRect();
    const rect = textarea.getBoundingClientRect();
    const style = getComputedStyle(textarea);
    el.style.top = `${rect.top - (parent?.top ?? 0) + textarea.clientTop}px`;
    el.style.left = `${rect.left - (parent?.left ?? 0) + textarea.clientLeft}px`;
    el.style.width = `${textarea.clientWidth}px`;
    el.style.height = `${textarea.clientHeight}px`;
    for (const p of [
      'font',
      'letterSpacing',
      'wordSpacing',
      'lineHeight',
      'paddingTop',
      'paddingRight',
      'paddingBottom',
      'paddingLeft',
      'tabSize',
      'textIndent',
      'direction',
    ] as const) {
      el.style[p] = style[p];
    }
    el.scrollTop = textarea.scrollTop;
    const follow = () => {
      el.scrollTop = textarea.scrollTop;
    };
    textarea.addEventListener('scroll', follow);
    return () => textarea.removeEventListener('scroll', follow);
  });
  const parts: ReactNode[] = [];
  let at = 0;
  for (const m of draft.mentions) {
    parts.push(draft.text.slice(at, m.start));
    parts.push(
      <Box
        component="span"
        key={m.start}
        sx={{
          borderRadius: 0.5,
          bgcolor: (theme) => alpha(theme.palette.secondary.main, 0.18),
          boxShadow: (theme) => `0 0 0 1px ${alpha(theme.palette.secondary.main, 0.35)}`,
        }}
      >
        {draft.text.slice(m.start, mentionEnd(m))}
      </Box>,
    );
    at = mentionEnd(m);
  }
  // A last new line needs a character after it to take its height, as the text area gives it.
  parts.push(`${draft.text.slice(at)}\u200b`);
  return (
    <Box
      ref={box}
      aria-hidden
      data-testid="mention-highlights"
      sx={{
        position: 'absolute',
        overflow: 'hidden',
        pointerEvents: 'none',
        whiteSpace: 'pre-wrap',
        overflowWrap: 'break-word',
        color: 'transparent',
        boxSizing: 'border-box',
      }}
    >
      {parts}
    </Box>
  );
}

/**
 * A Markdown text field where `@` opens a list of people (an ARIA combobox: arrow keys move, Enter or
 * Tab picks, Escape closes). A picked person shows as their marked name, never as markup; the draft
 * keeps who was picked where (see mentionText.ts), so editing around a name keeps it and deleting
 * into it removes it whole.
 */
export function MentionInput({
  label,
  placeholder,
  draft,
  onDraftChange,
  onEnter,
  onTyped,
  onPaste,
  maxLength,
  maxRows = 8,
  minRows,
  autoFocus,
  ref,
}: MentionInputProps) {
  const listId = useId();
  const input = useRef<HTMLTextAreaElement | null>(null);
  const [textarea, setTextarea] = useState<HTMLTextAreaElement | null>(null);
  const [caret, setCaret] = useState(draft.text.length);
  const [active, setActive] = useState(0);
  // Escape closes the people list until the caret moves.
  const [dismissedAt, setDismissedAt] = useState<number | null>(null);
  // Where the caret must go after a change the text area did not make itself.
  const pendingCaret = useRef<number | null>(null);
  useImperativeHandle(ref, () => ({ focus: () => input.current?.focus() }), []);
  // Stable: a new callback on each draw would be called with null and the element each time.
  const setInput = useCallback((el: HTMLTextAreaElement | null) => {
    input.current = el;
    setTextarea(el);
  }, []);

  useLayoutEffect(() => {
    const at = pendingCaret.current;
    if (at === null || !input.current) return;
    pendingCaret.current = null;
    input.current.setSelectionRange(at, at);
  });

  const query = dismissedAt === caret ? null : mentionQueryAt(draft, caret);
  const people = usePeopleSearch(query?.query ?? '', query !== null);
  // The search waits for a pause in typing, and its last answer stays meanwhile: it is narrowed to
  // the letters typed since (as the server matches: name, e-mail or department), so Enter right
  // after typing never picks someone the letters no longer match.
  const latest = query?.query.toLocaleLowerCase() ?? '';
  const found = query
    ? (people.data?.items ?? [])
        .filter((p) =>
          [p.displayName, p.email, p.department].some((v) => v?.toLocaleLowerCase().includes(latest)),
        )
        .slice(0, SHOWN)
    : [];
  const highlighted = Math.min(active, Math.max(0, found.length - 1));
  const open = found.length > 0;

  const moveCaret = (at: number) => {
    setCaret(at);
    pendingCaret.current = at;
  };
  const pick = (person: User) => {
    if (!query) return;
    const next = insertMention(draft, query.start, caret, person);
    onDraftChange(next.draft);
    moveCaret(next.caret);
    setActive(0);
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (open) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const step = event.key === 'ArrowDown' ? 1 : found.length - 1;
        setActive((highlighted + step) % found.length);
        return;
      }
      if ((event.key === 'Enter' || event.key === 'Tab') && !event.nativeEvent.isComposing) {
        event.preventDefault();
        pick(found[highlighted]!);
        return;
      }
      if (event.key === 'Escape') {
        // The list closes, not the dialog the field may be in.
        event.preventDefault();
        event.stopPropagation();
        setDismissedAt(caret);
        return;
      }
    }
    if (onEnter && event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      onEnter();
    }
  };

  return (
    <Box sx={{ position: 'relative', flexGrow: 1, minWidth: 0 }}>
      {draft.mentions.length > 0 && <Highlights draft={draft} textarea={textarea} />}
      <TextField
        inputRef={setInput}
        fullWidth
        multiline
        minRows={minRows}
        maxRows={maxRows}
        size="small"
        label={label}
        placeholder={placeholder}
        value={draft.text}
        autoFocus={autoFocus}
        onChange={(e) => {
          const at = e.target.selectionStart ?? e.target.value.length;
          const next = applyEdit(draft, e.target.value, at);
          onDraftChange(next.draft);
          if (next.draft.text !== e.target.value) moveCaret(next.caret);
          else setCaret(at);
          setActive(0);
          onTyped?.(next.draft.text);
        }}
        onSelect={(e) => setCaret((e.target as HTMLTextAreaElement).selectionStart ?? 0)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        // Above the marks drawn behind it. Not as an inline style: the hidden textarea that measures
        // the height takes the inline style too, and would leave its own (absolute) place.
        sx={{ '& .MuiInputBase-input': { position: 'relative', zIndex: 1 } }}
        slotProps={{
          htmlInput: {
            maxLength,
            role: 'combobox',
            'aria-autocomplete': 'list',
            'aria-haspopup': 'listbox',
            'aria-expanded': open,
            'aria-controls': open ? listId : undefined,
            // No aria-multiline: ARIA 1.2 does not allow it on a combobox (axe: aria-allowed-attr, critical);
            // the element is still a textarea, where Enter sends and Shift+Enter starts a new line.
            'aria-activedescendant': open ? mentionOptionId(listId, highlighted) : undefined,
          },
        }}
      />
      <MentionMenu
        id={listId}
        anchor={textarea?.parentElement ?? null}
        people={found}
        active={highlighted}
        onPick={pick}
      />
    </Box>
  );
}
