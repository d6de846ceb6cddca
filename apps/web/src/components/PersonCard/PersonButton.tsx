import { type CSSProperties, type MouseEvent, type ReactNode, Suspense, useState } from 'react';
import { withTexts } from '../../i18n/index.ts';
import { lazyOnFirstUse } from '../lazyOnFirstUse.tsx';

// The card's code (MUI Popover, the profile query, the buttons) loads on the first click, hover or focus.
const PersonCard = lazyOnFirstUse(() => withTexts(import('./PersonCard.tsx'), 'personCard'));

/** Who a person button opens: an id for the card, a name to show until it has loaded. */
export interface CardPerson {
  id: string;
  displayName: string;
}

/** Looks like the text or picture it wraps: no button chrome, a pointer and a focus ring. */
const bare: CSSProperties = {
  font: 'inherit',
  color: 'inherit',
  background: 'none',
  border: 0,
  padding: 0,
  margin: 0,
  cursor: 'pointer',
  textAlign: 'inherit',
};

/**
 * A person's name or photo that opens their profile card (`PersonCard`). The name is the button a
 * keyboard and a screen reader reach; a photo beside the same name is `decorative` (clickable with a
 * pointer, not a second stop for the same person).
 */
export function PersonButton({
  person,
  children,
  decorative = false,
  style,
}: {
  person: CardPerson;
  children: ReactNode;
  decorative?: boolean;
  style?: CSSProperties;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const open = (event: MouseEvent<HTMLElement>) => {
    event.stopPropagation();
    event.preventDefault();
    setAnchor(event.currentTarget);
  };
  return (
    <>
      <button
        type="button"
        onClick={open}
        onMouseEnter={PersonCard.preload}
        onFocus={PersonCard.preload}
        aria-haspopup="dialog"
        aria-expanded={anchor !== null}
        {...(decorative ? { 'aria-hidden': true, tabIndex: -1 } : {})}
        style={{ ...bare, ...style }}
      >
        {children}
      </button>
      {anchor && (
        <Suspense fallback={null}>
          <PersonCard person={person} anchorEl={anchor} onClose={() => setAnchor(null)} />
        </Suspense>
      )}
    </>
  );
}
