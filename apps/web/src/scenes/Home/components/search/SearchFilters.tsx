import type { Person, SearchPage, User } from '@btalk/contracts';
import ArrowDropDown from '@mui/icons-material/ArrowDropDown';
import AttachFile from '@mui/icons-material/AttachFile';
import Cancel from '@mui/icons-material/Cancel';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Popover from '@mui/material/Popover';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePeopleSearch } from '../../../../components/PeoplePicker.tsx';
import { type FoundTopic, useTopicFinder } from '../../../../components/useTopicFinder.ts';
import { currentLanguage } from '../../../../i18n/index.ts';
import type { SearchFilterValues } from './searchParams.ts';

/** A filter as a chip: its name when unset (opens its menu), its value when set (with a remove). */
function FilterChip({
  name,
  value,
  onOpen,
  onClear,
}: {
  name: string;
  value: string | null;
  onOpen: (anchor: HTMLElement) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation('search');
  return (
    <Chip
      label={
        value ?? (
          <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center' }}>
            {name}
            <ArrowDropDown fontSize="small" aria-hidden sx={{ mr: -0.75 }} />
          </Box>
        )
      }
      color={value ? 'primary' : 'default'}
      variant={value ? 'filled' : 'outlined'}
      aria-haspopup="dialog"
      onClick={(e) => onOpen(e.currentTarget)}
      {...(value
        ? { onDelete: onClear, deleteIcon: <RemoveMark label={t('filters.remove', { name })} /> }
        : {})}
    />
  );
}

/** The remove mark of a set filter (MUI gives it the chip's delete class and click), named for a screen reader. */
function RemoveMark({ label, ...props }: { label: string }) {
  return (
    <Box component="span" role="button" aria-label={label} {...props}>
      <Cancel fontSize="inherit" aria-hidden />
    </Box>
  );
}

/** A small panel under a chip: one filter's choice. */
function FilterMenu({
  anchor,
  label,
  onClose,
  children,
}: {
  anchor: HTMLElement | null;
  label: string;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Popover
      open={anchor !== null}
      anchorEl={anchor}
      onClose={onClose}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'left' }}
      slotProps={{
        paper: { role: 'dialog', 'aria-label': label, sx: { p: 2, width: 320, maxWidth: '90vw' } },
      }}
    >
      {children}
    </Popover>
  );
}

/** Picks a person by name, e-mail or department. */
function PersonChoice({ onPick }: { onPick: (person: User) => void }) {
  const { t } = useTranslation('search');
  const [input, setInput] = useState('');
  const found = usePeopleSearch(input);
  return (
    <Autocomplete
      openOnFocus
      options={found.data?.items ?? []}
      loading={found.isFetching}
      filterOptions={(x) => x}
      getOptionLabel={(u) => u.displayName}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      inputValue={input}
      onInputChange={(_e, text) => setInput(text)}
      onChange={(_e, person) => person && onPick(person)}
      noOptionsText={t('filters.none')}
      loadingText={t('filters.searching')}
      renderInput={(params) => <TextField {...params} autoFocus label={t('filters.findPerson')} />}
    />
  );
}

/** Picks a topic by part of its title. */
function TopicChoice({ onPick }: { onPick: (topic: FoundTopic) => void }) {
  const { t } = useTranslation('search');
  const [input, setInput] = useState('');
  const found = useTopicFinder(input);
  return (
    <Autocomplete
      openOnFocus
      options={found.data ?? []}
      loading={found.isFetching}
      filterOptions={(x) => x}
      getOptionLabel={(topic) => topic.title}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      inputValue={input}
      onInputChange={(_e, text) => setInput(text)}
      onChange={(_e, topic) => topic && onPick(topic)}
      noOptionsText={t('filters.none')}
      loadingText={t('filters.searching')}
      renderInput={(params) => <TextField {...params} autoFocus label={t('filters.findTopic')} />}
    />
  );
}

/** Picks a range of days (either end may stay open). */
function DateChoice({
  from,
  to,
  onPick,
}: {
  from: string | null;
  to: string | null;
  onPick: (from: string | null, to: string | null) => void;
}) {
  const { t } = useTranslation('search');
  const [start, setStart] = useState(from ?? '');
  const [end, setEnd] = useState(to ?? '');
  return (
    <Stack
      component="form"
      spacing={2}
      onSubmit={(e) => {
        e.preventDefault();
        onPick(start || null, end || null);
      }}
    >
      <TextField
        type="date"
        label={t('filters.from')}
        value={start}
        onChange={(e) => setStart(e.target.value)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: end || undefined } }}
      />
      <TextField
        type="date"
        label={t('filters.to')}
        value={end}
        onChange={(e) => setEnd(e.target.value)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: start || undefined } }}
      />
      <Button type="submit" variant="contained">
        {t('filters.apply')}
      </Button>
    </Stack>
  );
}

/** A day of the calendar, short, in the reader's language. */
function dayLabel(day: string): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d).toLocaleDateString(currentLanguage() === 'th' ? 'th-TH' : 'en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
}

type Menu = 'person' | 'topic' | 'date';

/**
 * The filters above the search hits, as chips: person (author), topic, has file, date range. A set
 * filter shows its value (the names come with the answer) and can be removed.
 */
export function SearchFilters({
  value,
  names,
  onChange,
}: {
  value: SearchFilterValues;
  names: SearchPage['filters'] | undefined;
  onChange: (next: SearchFilterValues) => void;
}) {
  const { t } = useTranslation('search');
  const [menu, setMenu] = useState<{ kind: Menu; anchor: HTMLElement } | null>(null);
  // Names picked here, until the answer names them.
  const [picked, setPicked] = useState<{ author?: Person | User; topic?: FoundTopic }>({});
  const close = () => setMenu(null);
  const open = (kind: Menu) => (anchor: HTMLElement) => setMenu({ kind, anchor });
  const anchorOf = (kind: Menu) => (menu?.kind === kind ? menu.anchor : null);
  const authorName =
    (names?.author?.id === value.author ? names?.author?.displayName : undefined) ??
    (picked.author?.id === value.author ? picked.author?.displayName : undefined) ??
    '…';
  const topicTitle =
    (names?.topic?.id === value.topic ? names?.topic?.title : undefined) ??
    (picked.topic?.id === value.topic ? picked.topic?.title : undefined) ??
    '…';
  const range =
    value.from || value.to
      ? `${value.from ? dayLabel(value.from) : '…'} – ${value.to ? dayLabel(value.to) : '…'}`
      : null;
  return (
    <Stack
      direction="row"
      role="group"
      aria-label={t('filters.label')}
      sx={{ flexWrap: 'wrap', gap: 1, mb: 1 }}
    >
      <FilterChip
        name={t('filters.person')}
        value={value.author ? t('filters.personValue', { name: authorName }) : null}
        onOpen={open('person')}
        onClear={() => onChange({ ...value, author: null })}
      />
      <FilterChip
        name={t('filters.topic')}
        value={value.topic ? t('filters.topicValue', { title: topicTitle }) : null}
        onOpen={open('topic')}
        onClear={() => onChange({ ...value, topic: null })}
      />
      <Chip
        icon={<AttachFile />}
        label={t('filters.hasFile')}
        color={value.hasFile ? 'primary' : 'default'}
        variant={value.hasFile ? 'filled' : 'outlined'}
        aria-pressed={value.hasFile}
        onClick={() => onChange({ ...value, hasFile: !value.hasFile })}
      />
      <FilterChip
        name={t('filters.date')}
        value={range ? t('filters.dateValue', { range }) : null}
        onOpen={open('date')}
        onClear={() => onChange({ ...value, from: null, to: null })}
      />
      <FilterMenu anchor={anchorOf('person')} label={t('filters.person')} onClose={close}>
        <PersonChoice
          onPick={(person) => {
            setPicked((p) => ({ ...p, author: person }));
            onChange({ ...value, author: person.id });
            close();
          }}
        />
      </FilterMenu>
      <FilterMenu anchor={anchorOf('topic')} label={t('filters.topic')} onClose={close}>
        <TopicChoice
          onPick={(topic) => {
            setPicked((p) => ({ ...p, topic }));
            onChange({ ...value, topic: topic.id });
            close();
          }}
        />
      </FilterMenu>
      <FilterMenu anchor={anchorOf('date')} label={t('filters.date')} onClose={close}>
        <DateChoice
          from={value.from}
          to={value.to}
          onPick={(from, to) => {
            onChange({ ...value, from, to });
            close();
          }}
        />
      </FilterMenu>
    </Stack>
  );
}
