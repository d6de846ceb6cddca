import type { TermsLocale, TermsText, TermsTextInput } from '@btalk/contracts';
import { MAX_TERMS_BODY_LENGTH, MAX_TERMS_TITLE_LENGTH } from '@btalk/contracts/constants';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TERMS_VERSIONS_KEY } from '../../../api/terms.ts';
import { useServices } from '../../../services.tsx';
import { dialogs } from '../../../stores/dialogs.ts';
import { TermsEditor } from './TermsEditor.tsx';

/** The draft of a new version: a title and a Markdown body per language. */
export type Draft = Record<TermsLocale, TermsTextInput>;

// The limits of the publish contract (TermsTextInput), checked here so the button says what is missing.

function draftFrom(texts: TermsText[]): Draft {
  const of = (locale: TermsLocale) => {
    const text = texts.find((x) => x.locale === locale);
    return { title: text?.title ?? '', body: text?.body ?? '' };
  };
  return { th: of('th'), en: of('en') };
}

function complete(draft: Draft): boolean {
  return Object.values(draft).every(
    (x) =>
      x.title.trim().length > 0 &&
      x.title.trim().length <= MAX_TERMS_TITLE_LENGTH &&
      x.body.trim().length > 0 &&
      x.body.trim().length <= MAX_TERMS_BODY_LENGTH,
  );
}

/**
 * Writes version `nextVersion`, starting from the current text, and publishes it after a
 * confirmation: everyone, the publisher included, accepts it again.
 */
export function PublishForm({ nextVersion, startFrom }: { nextVersion: number; startFrom: TermsText[] }) {
  const { t } = useTranslation('termsAdmin');
  const { api } = useServices();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => draftFrom(startFrom));
  const ready = complete(draft);

  const publish = useMutation({
    mutationFn: () => api.terms.publish({ th: draft.th, en: draft.en, client: 'web' }),
    onSuccess: async (published) => {
      dialogs.showSnack(t('published', { version: published.version }));
      await queryClient.invalidateQueries({ queryKey: TERMS_VERSIONS_KEY });
    },
  });

  const onPublish = async () => {
    const yes = await dialogs.confirm({
      title: t('confirmTitle', { version: nextVersion }),
      text: t('confirmText'),
      confirmLabel: t('publish'),
    });
    if (yes) publish.mutate();
  };

  return (
    <Box>
      <TermsEditor
        draft={draft}
        onChange={setDraft}
        maxTitle={MAX_TERMS_TITLE_LENGTH}
        maxBody={MAX_TERMS_BODY_LENGTH}
      />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, mt: 3, flexWrap: 'wrap' }}>
        <Button
          variant="contained"
          size="large"
          disabled={!ready || publish.isPending}
          onClick={() => void onPublish()}
        >
          {t('publishVersion', { version: nextVersion })}
        </Button>
        {!ready && (
          <Typography variant="body2" color="text.secondary">
            {t('incomplete')}
          </Typography>
        )}
      </Box>
    </Box>
  );
}
