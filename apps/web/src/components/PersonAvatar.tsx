import Avatar from '@mui/material/Avatar';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useServices } from '../services.tsx';
import { useStore } from '../stores/createStore.ts';
import { initials } from './initials.ts';

/** Who an avatar shows. */
export interface AvatarPerson {
  id: string;
  displayName: string;
  email: string;
}

const PALETTE = ['#472F92', '#8F0562', '#00695C', '#1565C0', '#AD1457', '#4E342E', '#37474F', '#6A1B9A'];

function colourOf(id: string): string {
  let hash = 0;
  for (const ch of id) hash = (hash * 31 + (ch.codePointAt(0) ?? 0)) >>> 0;
  return PALETTE[hash % PALETTE.length] ?? PALETTE[0]!;
}

/**
 * A person's photo from the directory's Graph API (through `axiosCache`, cached an hour) when the
 * session holds a directory token; their initials on a stable colour otherwise or while it loads.
 */
export function PersonAvatar({ person, size = 40 }: { person: AvatarPerson; size?: number }) {
  const { axiosCache, session } = useServices();
  const hasDirectoryToken = useStore(session, (s) => s.aad_token !== null);
  const photo = useQuery({
    queryKey: ['graph', 'photo', person.email],
    enabled: hasDirectoryToken,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    meta: { silent: true },
    queryFn: async () => {
      const res = await axiosCache.get<Blob>(`users/${encodeURIComponent(person.email)}/photo/$value`, {
        responseType: 'blob',
      });
      return res.data;
    },
  });
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!photo.data) return;
    const made = URL.createObjectURL(photo.data);
    setUrl(made);
    return () => URL.revokeObjectURL(made);
  }, [photo.data]);
  return (
    <Avatar
      src={url ?? undefined}
      alt={person.displayName}
      sx={{ width: size, height: size, fontSize: size * 0.4, bgcolor: colourOf(person.id), color: '#fff' }}
    >
      {initials(person.displayName)}
    </Avatar>
  );
}
