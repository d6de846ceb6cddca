import { useColorScheme } from '@mui/material/styles';
import EmojiPicker, { Categories, EmojiStyle, type PickerLabels, Theme } from 'emoji-picker-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { loadThaiEmojiData } from './emojiData.ts';

const CATEGORIES = [
  Categories.SUGGESTED,
  Categories.SMILEYS_PEOPLE,
  Categories.ANIMALS_NATURE,
  Categories.FOOD_DRINK,
  Categories.TRAVEL_PLACES,
  Categories.ACTIVITIES,
  Categories.OBJECTS,
  Categories.SYMBOLS,
  Categories.FLAGS,
] as const;

/**
 * The full emoji picker (emoji-picker-react), in its own chunk: loaded on the first open of a
 * reaction menu. Native emojis (no image is fetched: the CSP allows none and the app must work
 * without the internet), the app's light or dark mode, Thai names and labels in Thai. Search by name
 * has the focus; arrow keys move into the grid, Enter picks.
 */
export default function EmojiPickerPanel({ onPick }: { onPick: (emoji: string) => void }) {
  const { t, i18n } = useTranslation('topic');
  const { mode, systemMode } = useColorScheme();
  const dark = (mode === 'system' ? systemMode : mode) === 'dark';
  const thai = i18n.resolvedLanguage === 'th';
  const labels = useMemo<Partial<PickerLabels>>(
    () => ({
      searchPlaceholder: t('reactions.picker.searchPlaceholder'),
      searchLabel: t('reactions.picker.searchLabel'),
      searchClear: t('reactions.picker.searchClear'),
      searchResultsNone: t('reactions.picker.none'),
      searchResultsOne: t('reactions.picker.one'),
      searchResultsMany: t('reactions.picker.many'),
      categoryNavigation: t('reactions.picker.categories'),
      loading: t('reactions.picker.loading'),
      loadingError: t('reactions.picker.loadFailed'),
      retryLoading: t('reactions.picker.retry'),
      skinToneNeutral: t('reactions.picker.skin.neutral'),
      skinToneLight: t('reactions.picker.skin.light'),
      skinToneMediumLight: t('reactions.picker.skin.mediumLight'),
      skinToneMedium: t('reactions.picker.skin.medium'),
      skinToneMediumDark: t('reactions.picker.skin.mediumDark'),
      skinToneDark: t('reactions.picker.skin.dark'),
    }),
    [t],
  );
  const categories = useMemo(
    () => CATEGORIES.map((category) => ({ category, name: t(`reactions.picker.category.${category}`) })),
    [t],
  );
  return (
    <EmojiPicker
      emojiStyle={EmojiStyle.NATIVE}
      colorScheme={dark ? Theme.DARK : Theme.LIGHT}
      // English is in the picker's own chunk; Thai comes as a loader (with English names to search).
      emojiData={thai ? loadThaiEmojiData : undefined}
      labels={labels}
      categories={categories}
      previewConfig={{ showPreview: false }}
      width="100%"
      height={380}
      onEmojiClick={(data) => onPick(data.emoji)}
      aria-label={t('reactions.picker.all')}
    />
  );
}
