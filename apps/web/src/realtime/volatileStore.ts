import type { PresenceSnapshotMessage, VolatileMessage } from '@btalk/contracts';
import { createStore, type Store } from '../stores/createStore.ts';

/** How long "X is typing..." stays after the last signal (senders repeat every 2 s while typing). */
export const TYPING_SHOWN_MS = 5000;

/** A person in a room. */
export interface RoomPerson {
  userId: string;
  displayName: string;
}

/** Who is looking at and typing in each room, as the server last said. */
export interface VolatileState {
  present: Record<string, RoomPerson[]>;
  /** Per room, per person: name and when the last typing signal came. */
  typing: Record<string, Record<string, { displayName: string; at: number }>>;
}

/** The volatile store plus the way messages get into it. */
export interface VolatileStore extends Store<VolatileState> {
  apply(message: VolatileMessage | PresenceSnapshotMessage, now?: number): void;
  /** Forgets everything (sign-out, lost connection: the server re-sends snapshots). */
  reset(): void;
}

/** Creates the store of typing and presence (never stored, never replayed). */
export function createVolatileStore(): VolatileStore {
  const store = createStore<VolatileState>({ present: {}, typing: {} });
  return {
    ...store,
    apply(message, now = Date.now()) {
      store.setState((s) => {
        if (message.type === 'presenceSnapshot') {
          return { present: { ...s.present, [message.room]: message.people } };
        }
        const { room, userId, displayName } = message;
        if (message.kind === 'typing') {
          return {
            typing: { ...s.typing, [room]: { ...s.typing[room], [userId]: { displayName, at: now } } },
          };
        }
        const others = (s.present[room] ?? []).filter((p) => p.userId !== userId);
        const present = message.state === 'left' ? others : [...others, { userId, displayName }];
        // Someone who left stops typing too.
        const { [userId]: _gone, ...typingLeft } = s.typing[room] ?? {};
        return {
          present: { ...s.present, [room]: present },
          typing: message.state === 'left' ? { ...s.typing, [room]: typingLeft } : s.typing,
        };
      });
    },
    reset() {
      store.setState({ present: {}, typing: {} });
    },
  };
}
