import type { ReactNode, Ref } from 'react';
import { type Components, Virtuoso } from 'react-virtuoso';

/** Props of the app-wide virtualised list. */
export interface VirtualListProps<T> {
  items: readonly T[];
  /** Renders one item; only the items near the viewport are rendered. */
  renderItem: (item: T, index: number) => ReactNode;
  /** A stable key per item. */
  itemKey: (item: T) => string;
  /** Called when the end of the list comes into view (load the next page). */
  onEndReached?: () => void;
  /** Accessible name of the list. */
  label: string;
  /** Height of the scrolling area in pixels; 'window' scrolls with the page. */
  height?: number | 'window';
}

/** What the list's parts are given: its accessible name. */
interface ListContext {
  label: string;
}

// Real list elements, so that assistive technology announces a list, its name and its items. The name
// goes on the list itself: on the scrolling `div` (which has no role) it is an ARIA error.
const List: Components<unknown, ListContext>['List'] = ({ ref, style, children, context, ...rest }) => (
  <ul
    ref={ref as Ref<HTMLUListElement>}
    aria-label={context?.label}
    style={{ ...style, margin: 0, padding: 0, listStyle: 'none' }}
    {...rest}
  >
    {children}
  </ul>
);
const Item: Components<unknown, ListContext>['Item'] = ({
  children,
  item: _item,
  context: _context,
  ...rest
}) => <li {...rest}>{children}</li>;

/** The virtualised list every long list in BTalk uses (topics, posts, people), on react-virtuoso. */
export function VirtualList<T>({
  items,
  renderItem,
  itemKey,
  onEndReached,
  label,
  height = 'window',
}: VirtualListProps<T>) {
  return (
    <Virtuoso<T, ListContext>
      context={{ label }}
      data={items}
      useWindowScroll={height === 'window'}
      style={height === 'window' ? undefined : { height }}
      components={{ List, Item } as Components<T, ListContext>}
      computeItemKey={(_index, item) => itemKey(item)}
      itemContent={(index, item) => renderItem(item, index)}
      endReached={onEndReached}
    />
  );
}
