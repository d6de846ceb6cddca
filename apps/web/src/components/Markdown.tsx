import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import { type ComponentProps, memo } from 'react';
import ReactMarkdown, { type Components, defaultUrlTransform } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { PersonButton } from './PersonCard/PersonButton.tsx';

// `@[Name](user:<id>)` mention tokens become links with the `user:` scheme, shown as "@Name".
const MENTION = /@\[([^\]\n]{1,100})\]\(user:([A-Za-z0-9_-]{1,64})\)/g;

/** Turns mention tokens into Markdown links the renderer knows, so "@" stays part of the name. */
export function prepareMentions(text: string): string {
  return text.replace(MENTION, (_all, name: string, id: string) => `[@${name}](user:${id})`);
}

/**
 * Only web, mail and mention addresses survive: react-markdown's default transform already drops
 * `javascript:`, `vbscript:` and `data:` (anything outside http, https, mailto, irc, xmpp and relative).
 */
function urlTransform(url: string): string {
  if (/^user:[A-Za-z0-9_-]{1,64}$/.test(url)) return url;
  return defaultUrlTransform(url);
}

function MarkdownLink({ href, children }: ComponentProps<'a'>) {
  if (href?.startsWith('user:')) {
    const id = href.slice(5);
    // The mention opens the person's profile card; the name is the one written in the text.
    const name = typeof children === 'string' ? children.replace(/^@/, '') : id;
    return (
      <PersonButton person={{ id, displayName: name }}>
        <Box
          component="span"
          data-mention={id}
          sx={(theme) => ({
            color: 'secondary.main',
            fontWeight: 600,
            ...theme.applyStyles('dark', { color: 'secondary.light' }),
          })}
        >
          {children}
        </Box>
      </PersonButton>
    );
  }
  if (!href) return <span>{children}</span>;
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </Link>
  );
}

// Pictures named in the text would load from anywhere (tracking, mixed content): shown as links instead.
function MarkdownImage({ src, alt }: ComponentProps<'img'>) {
  if (typeof src !== 'string' || src === '') return <span>{alt}</span>;
  return <MarkdownLink href={src}>{alt || src}</MarkdownLink>;
}

const components: Components = {
  a: MarkdownLink,
  img: MarkdownImage,
};

/**
 * Whether Markdown would draw the text as it is, as one paragraph: one line, no character with a
 * meaning in CommonMark or GFM (emphasis, code, links, mentions, HTML, entities, escapes, tables), no
 * web address or e-mail GFM would link, no list, heading or quote at its start, no code indent.
 * Most chat messages are such, and they skip the parser: the first screen of a long topic on a
 * phone draws sooner.
 */
export function isPlainText(text: string): boolean {
  return (
    /^(?![\s\d+=-])[^\n\\`*_~[\]<>#|!&@]*$/.test(text) && !/https?:|www\./i.test(text) && !/\s$/.test(text)
  );
}

/** Styles of a message (post, comment, description): tight, as in a chat. */
const messageStyle = { '& p, & ul, & ol': { my: 0.5 } } as const;

/** Styles of a long document (the terms of use): readable line height, headings. */
const documentStyle = {
  typography: 'body1',
  lineHeight: 1.7,
  '& h1, & h2, & h3': { lineHeight: 1.3, mt: 3, mb: 1 },
  '& h1': { typography: 'h5', fontWeight: 700 },
  '& h2': { typography: 'h6', fontWeight: 700 },
  '& h3': { typography: 'subtitle1', fontWeight: 700 },
  '& p, & ul, & ol': { my: 1.5 },
} as const;

/**
 * Markdown as BTalk renders posts, comments, descriptions and the terms of use: CommonMark + GFM, no
 * raw HTML at all (`skipHtml`), no script URLs, links in a new tab with `noopener`, mentions as names.
 * `variant="document"` lays out a long text (headings, wider spacing). Import it only from lazily
 * loaded scenes: the parser is large.
 */
export const Markdown = memo(function Markdown({
  text,
  variant = 'message',
}: {
  text: string;
  variant?: 'message' | 'document';
}) {
  return (
    <Box
      className="markdown"
      sx={(theme) => ({
        overflowWrap: 'anywhere',
        '& pre': { overflowX: 'auto', p: 1, borderRadius: 1, bgcolor: 'action.hover' },
        '& code': { fontFamily: 'monospace', fontSize: '0.9em' },
        '& table': { borderCollapse: 'collapse', display: 'block', overflowX: 'auto' },
        '& th, & td': { border: 1, borderColor: 'divider', px: 1, py: 0.5 },
        '& blockquote': { borderLeft: 3, borderColor: 'divider', m: 0, pl: 1.5, color: 'text.secondary' },
        '& ul, & ol': { pl: 3 },
        ...(variant === 'document' ? documentStyle : messageStyle),
        // A long document's links are in the brand magenta; its light variant on the dark background.
        ...(variant === 'document'
          ? { '& a': { color: 'secondary.main', ...theme.applyStyles('dark', { color: 'secondary.light' }) } }
          : {}),
      })}
    >
      {isPlainText(text) ? (
        <p>{text}</p>
      ) : (
        <ReactMarkdown
          remarkPlugins={[remarkGfm]}
          skipHtml
          urlTransform={urlTransform}
          components={components}
        >
          {prepareMentions(text)}
        </ReactMarkdown>
      )}
    </Box>
  );
});
