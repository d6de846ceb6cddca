import { useCallback, useEffect, useState } from 'react';
import { useStore } from '../stores/createStore.ts';
import { useRealtime } from './context.ts';
import { createRealtimeStateStore } from './statusStore.ts';
import { createVolatileStore, type RoomPerson, TYPING_SHOWN_MS } from './volatileStore.ts';

// Outside the provider (component tests) the hooks read a store nothing writes to.
const EMPTY = createVolatileStore();
const IDLE = createRealtimeStateStore();
const NONE: RoomPerson[] = [];

/** Announces that this tab shows `room` while the component is mounted; answers who else is there. */
export function useRoomPresence(room: string): RoomPerson[] {
  const realtime = useRealtime();
  useEffect(() => {
    if (!realtime) return;
    realtime.client.setPresent(room, true);
    return () => realtime.client.setPresent(room, false);
  }, [realtime, room]);
  const me = useStore(realtime?.client.state ?? IDLE, (s) => s.userId);
  const people = useStore(realtime?.volatile ?? EMPTY, (s) => s.present[room] ?? NONE);
  return people.filter((p) => p.userId !== me);
}

/** Who else is typing in `room` now, and the function to call when this person types there. */
export function useTyping(room: string): { typists: string[]; notifyTyping: () => void } {
  const realtime = useRealtime();
  const me = useStore(realtime?.client.state ?? IDLE, (s) => s.userId);
  const entries = useStore(realtime?.volatile ?? EMPTY, (s) => s.typing[room]);
  const [now, setNow] = useState(() => Date.now());
  const active = Object.entries(entries ?? {}).filter(([id, e]) => id !== me && now - e.at < TYPING_SHOWN_MS);
  const anyone = Object.keys(entries ?? {}).length > 0;
  useEffect(() => {
    // Typing signals end silently: a tick lets the line disappear when they stop.
    setNow(Date.now());
    if (!anyone) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [anyone]);
  const notifyTyping = useCallback(() => realtime?.client.typing(room), [realtime, room]);
  return { typists: active.map(([, e]) => e.displayName), notifyTyping };
}
