import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import type { i18n as I18n } from 'i18next';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ScenePage } from '../../components/ScenePage.tsx';
import { type Services, useServices } from '../../services.tsx';
import { teamsStore } from '../../stores/teams.ts';
import {
  askForConsent,
  connectToTeams,
  deepLinkTarget,
  languageOfTeamsLocale,
  onTeamsThemeChange,
  signInWithTeamsToken,
} from './teamsHost.ts';

type Step = 'connecting' | 'outside' | 'signingIn' | 'consent' | 'failed';

/** How opening the tab ended, and the page it leads to. */
interface Opened {
  outcome: 'outside' | 'signedIn' | 'consent' | 'failed';
  target: string;
}

/**
 * One opening per page load: connecting, Teams' theme and language, and the single sign-on run
 * once, however often the scene mounts (a language or theme change may mount it again), so a tab
 * opening makes one session, not two.
 */
let opening: Promise<Opened> | null = null;

function openInTeams(services: Services, queryClient: QueryClient, i18n: I18n): Promise<Opened> {
  opening ??= (async (): Promise<Opened> => {
    const context = await connectToTeams(services.config.teamsTabTestHosts ?? []);
    if (!context) return { outcome: 'outside', target: '/' };
    teamsStore.setState({ inTeams: true, theme: context.theme });
    onTeamsThemeChange((theme) => teamsStore.setState({ theme }));
    void i18n.changeLanguage(languageOfTeamsLocale(context.locale));
    const target = deepLinkTarget(context.subPageId);
    try {
      const result = await signInWithTeamsToken(services, queryClient);
      return { outcome: result === 'consent' ? 'consent' : 'signedIn', target };
    } catch (error) {
      console.error('BTalk: Teams sign-in failed', error);
      return { outcome: 'failed', target };
    }
  })();
  return opening;
}

/**
 * `/teamtab`, the BTalk tab inside Microsoft Teams: connects to Teams, takes its theme and language,
 * signs in with Teams' single sign-on (the consent popup when the directory asks for it), then
 * opens BTalk itself (the page a deep link names, or Home) in the tab. Outside Teams it says so.
 */
export default function TeamTab() {
  const { t, i18n } = useTranslation('teamtab');
  const services = useServices();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>('connecting');
  const target = useRef('/');

  const signIn = useCallback(async () => {
    setStep('signingIn');
    try {
      const result = await signInWithTeamsToken(services, queryClient);
      if (result === 'consent') {
        setStep('consent');
        return;
      }
      void navigate(target.current, { replace: true });
    } catch (error) {
      console.error('BTalk: Teams sign-in failed', error);
      setStep('failed');
    }
  }, [services, queryClient, navigate]);

  useEffect(() => {
    let current = true;
    void openInTeams(services, queryClient, i18n).then((opened) => {
      if (!current) return;
      target.current = opened.target;
      if (opened.outcome === 'signedIn') void navigate(opened.target, { replace: true });
      else setStep(opened.outcome);
    });
    return () => {
      current = false;
    };
  }, [services, queryClient, i18n, navigate]);

  const consent = async () => {
    try {
      await askForConsent();
    } catch (error) {
      // Closed or refused: the button stays for another try.
      console.error('BTalk: Teams consent popup failed', error);
      return;
    }
    await signIn();
  };

  return (
    <ScenePage title={t('title')}>
      {step === 'outside' && (
        <>
          <Typography color="text.secondary" sx={{ mb: 3 }}>
            {t('text')}
          </Typography>
          <Button variant="contained" component={Link} to="/">
            {t('openWebApp')}
          </Button>
        </>
      )}
      {(step === 'connecting' || step === 'signingIn') && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2 }} role="status">
          <CircularProgress size={24} />
          <Typography>{step === 'connecting' ? t('connecting') : t('signingIn')}</Typography>
        </Box>
      )}
      {step === 'consent' && (
        <>
          <Typography sx={{ mb: 3 }}>{t('consentText')}</Typography>
          <Button variant="contained" onClick={() => void consent()}>
            {t('consentButton')}
          </Button>
        </>
      )}
      {step === 'failed' && (
        <>
          <Alert severity="error" sx={{ mb: 3 }}>
            {t('failed')}
          </Alert>
          <Button variant="contained" onClick={() => void signIn()}>
            {t('retry')}
          </Button>
        </>
      )}
    </ScenePage>
  );
}
