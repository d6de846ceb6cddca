import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../services.tsx';
import { useAfterFirstScreen } from '../../startup/afterFirstScreen.ts';
import { useStore } from '../../stores/createStore.ts';
import { initials } from '../initials.ts';

/** Query key of the signed-in person's photo (the Graph client caches the answer itself for an hour). */
export const MY_PHOTO_QUERY_KEY = ['me', 'photo'] as const;

function asDataUrl(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}

/**
 * The signed-in person's photo from Graph (`/me/photo/$value` through `axiosCache`, with the
 * directory token), or their initials when there is no photo or no directory token. The photo is
 * asked for once the first screen is done (`afterFirstScreen`): the initials show first, in the
 * same circle. `outlined` draws a light ring, for the app bar.
 */
export function PersonAvatar({
  name,
  size,
  outlined = false,
}: {
  name: string;
  size: number;
  outlined?: boolean;
}) {
  const { axiosCache, session } = useServices();
  const aadToken = useStore(session, (s) => s.aad_token);
  // The initials hold the same circle until then, so nothing moves when the photo arrives.
  const firstScreenDone = useAfterFirstScreen();
  const photo = useQuery({
    queryKey: [...MY_PHOTO_QUERY_KEY, aadToken !== null],
    enabled: aadToken !== null && firstScreenDone,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      try {
        const response = await axiosCache.get<Blob>('/me/photo/$value', { responseType: 'blob' });
        return await asDataUrl(response.data);
      } catch {
        // Many people have no photo (Graph answers 404): their initials are shown instead.
        return null;
      }
    },
  });
  return (
    <Avatar
      src={photo.data ?? undefined}
      alt={name}
      sx={{
        width: size,
        height: size,
        bgcolor: 'secondary.main',
        // MUI's Avatar writes in the page's background colour: near black on the brand colour in the dark theme.
        color: 'common.white',
        fontSize: size * 0.42,
        // On the app bar a photo in the brand colour would melt into it.
        ...(outlined ? { border: '2px solid rgba(255,255,255,0.8)' } : {}),
      }}
    >
      {/* The initials are drawn, not written: the avatar sits in buttons named otherwise ("Account
          menu"), whose visible text must be part of their name (WCAG 2.5.3); the photo's alt says who. */}
      <Box
        component="span"
        aria-hidden
        data-initials={initials(name)}
        sx={{ '&::before': { content: 'attr(data-initials)' } }}
      />
    </Avatar>
  );
}
