import { usePendingAnnouncements } from '../../../components/announcements/useAnnouncements.ts';
import { lazyOnFirstUse } from '../../../components/lazyOnFirstUse.tsx';
import { withTexts } from '../../../i18n/index.ts';

// The list and its texts load only when there is something to acknowledge: most visits to Home have
// nothing, and Home's first screen stays small (first-load budget).
const ImportantList = lazyOnFirstUse(() => withTexts(import('./ImportantList.tsx'), 'announcements'));

/**
 * Home's "Important" strip, hidden when there is nothing to acknowledge. Live: the realtime client
 * fetches the list again when a post is marked, and drops a post I acknowledge anywhere.
 */
export function ImportantStrip() {
  const pending = usePendingAnnouncements();
  const list = pending.data;
  if (!list || list.items.length === 0) return null;
  return <ImportantList list={list} />;
}
