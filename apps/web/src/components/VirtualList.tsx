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

// Real list elements, so that assistive technology announces a list and its items.
const List: Components<unknown>['List'] = ({ ref, style, children, ...rest }) => (
  <ul
    ref={ref as Ref<HTMLUListElement>}
    style={{ ...style, margin: 0, padding: 0, listStyle: 'none' }}
    {...rest}
  >
    {children}
  </ul>
);
const Item: Components<unknown>['Item'] = ({ children, item: _item, ...rest }) => (
  <li {...rest}>{children}</li>
);

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
    <Virtuoso<T>
      aria-label={label}
      data={items}
      useWindowScroll={height === 'window'}
      style={height === 'window' ? undefined : { height }}
      components={{ List, Item } as Components<T>}
      computeItemKey={(_index, item) => itemKey(item)}
      itemContent={(index, item) => renderItem(item, index)}
      endReached={onEndReached}
    />
  );
}
