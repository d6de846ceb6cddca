import { useEffect } from 'react';
import { useNavigate } from 'react-router';

/**
 * A click on a browser notification focuses an open BTalk window and asks it (public/push-sw.js,
 * `btalk.open`) to show the notification's page: the router goes there without reloading the app.
 */
export function useNotificationClicks(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const worker = typeof navigator === 'undefined' ? undefined : navigator.serviceWorker;
    if (!worker) return;
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; url?: unknown } | null;
      if (data?.type !== 'btalk.open' || typeof data.url !== 'string' || !data.url.startsWith('/')) return;
      void navigate(data.url);
    };
    worker.addEventListener('message', onMessage);
    return () => worker.removeEventListener('message', onMessage);
  }, [navigate]);
}
