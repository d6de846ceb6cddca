import type { ChosenTopicVisibility, User } from '@btalk/contracts';
import { MAX_TOPIC_DESCRIPTION_LENGTH, MAX_TOPIC_TITLE_LENGTH } from '@btalk/contracts/constants';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isErrorEnvelope } from '../../api/errors.ts';
import { queryKeys } from '../../api/queryKeys.ts';
import { PeoplePicker } from '../../components/PeoplePicker.tsx';
import { ScenePage } from '../../components/ScenePage.tsx';
import { SignInPrompt, useSignedIn } from '../../components/SignInPrompt.tsx';
import { useServices } from '../../services.tsx';

/** Topic creation (`/topics/new`): "Title", "Description", "Visibility", members, "Create". */
export default function TopicNew() {
  const { t } = useTranslation('topic');
  const signedIn = useSignedIn();
  const { api } = useServices();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  // One id per form: pressing Create again after a lost answer gives the topic made the first time.
  const [clientId] = useState(() => crypto.randomUUID());
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [visibility, setVisibility] = useState<ChosenTopicVisibility>('organisation');
  const [members, setMembers] = useState<User[]>([]);
  const [touched, setTouched] = useState(false);

  const create = useMutation({
    meta: { silent: true },
    mutationFn: () =>
      api.topics.create({
        clientId,
        title: title.trim(),
        description,
        visibility,
        memberIds: members.map((m) => m.id),
      }),
    onSuccess: (topic) => {
      queryClient.setQueryData(queryKeys.topics.detail(topic.id), topic);
      void queryClient.invalidateQueries({ queryKey: queryKeys.topics.lists() });
      void navigate(`/topics/${topic.id}`, { replace: true });
    },
  });

  if (!signedIn) {
    return (
      <ScenePage title={t('newTitle')}>
        <SignInPrompt text={t('signInText')} />
      </ScenePage>
    );
  }

  const titleMissing = title.trim() === '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!titleMissing && !create.isPending) create.mutate();
  };
  return (
    <ScenePage title={t('newTitle')}>
      <Stack component="form" spacing={3} onSubmit={submit} noValidate sx={{ maxWidth: 640 }}>
        <TextField
          label={t('fields.title')}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          required
          autoFocus
          error={touched && titleMissing}
          helperText={touched && titleMissing ? t('fields.titleMissing') : ' '}
          slotProps={{ htmlInput: { maxLength: MAX_TOPIC_TITLE_LENGTH } }}
        />
        <TextField
          label={t('fields.description')}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
          multiline
          minRows={3}
          helperText={t('fields.descriptionHelp')}
          slotProps={{ htmlInput: { maxLength: MAX_TOPIC_DESCRIPTION_LENGTH } }}
        />
        <FormControl>
          <FormLabel id="topic-visibility">{t('fields.visibility')}</FormLabel>
          <RadioGroup
            aria-labelledby="topic-visibility"
            value={visibility}
            onChange={(e) => setVisibility(e.target.value as ChosenTopicVisibility)}
          >
            <FormControlLabel value="organisation" control={<Radio />} label={t('visibility.organisation')} />
            <FormControlLabel value="members" control={<Radio />} label={t('visibility.members')} />
          </RadioGroup>
        </FormControl>
        <PeoplePicker label={t('fields.members')} value={members} onChange={setMembers} />
        {create.isError && (
          <Alert severity="error">
            {isErrorEnvelope(create.error) ? create.error.message : t('createFailed')}
          </Alert>
        )}
        <Stack direction="row" spacing={2}>
          <Button type="submit" variant="contained" loading={create.isPending}>
            {t('create')}
          </Button>
          <Button component={Link} to="/">
            {t('cancel')}
          </Button>
        </Stack>
      </Stack>
    </ScenePage>
  );
}
