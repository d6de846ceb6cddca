import { useTranslation } from 'react-i18next';

/**
 * "Skip to content", the first stop of the tab order: moves the focus past the app bar to the
 * screen (`main`). Hidden until it has the focus (the `skip-link` class, styled in index.html so the
 * first screen's JavaScript does not carry it). The focus is moved by hand, so that the address keeps
 * its own `#post-<n>` fragments.
 */
export function SkipLink() {
  const { t } = useTranslation();
  return (
    // biome-ignore lint/a11y/useValidAnchor: a skip link is a link to a place in the page; the focus is moved by hand so that the address keeps its `#post-<n>`.
    <a
      href="#main"
      className="skip-link"
      onClick={(event) => {
        event.preventDefault();
        document.getElementById('main')?.focus();
      }}
    >
      {t('skipToContent')}
    </a>
  );
}
