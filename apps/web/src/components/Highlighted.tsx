import type { SearchHighlight } from '@btalk/contracts';
import Box from '@mui/material/Box';
import { Fragment } from 'react';

/**
 * A text with some of its parts marked (`<mark>`): a search snippet and where the words are in it.
 * The text stays text (React escapes it); ranges outside it or out of order are ignored.
 */
export function Highlighted({ text, ranges }: { text: string; ranges: readonly SearchHighlight[] }) {
  const parts: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const { start, end } of ranges) {
    if (start < at || end <= start || end > text.length) continue;
    if (start > at) parts.push({ text: text.slice(at, start), marked: false });
    parts.push({ text: text.slice(start, end), marked: true });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), marked: false });
  return (
    <>
      {parts.map((part, i) =>
        part.marked ? (
          <Box
            // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one text, in order, never reordered.
            key={i}
            component="mark"
            // Dark text on the light amber in both themes (the dark theme's text colour is white).
            sx={{ bgcolor: 'warning.light', color: 'common.black', borderRadius: 0.5, px: 0.25 }}
          >
            {part.text}
          </Box>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above.
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}
