import type { CallEventOption, CallStatus } from '@btalk/contracts';
import type { TFunction } from 'i18next';

// The default options' English labels, shown in the reader's language; other labels are the starter's own words.
const DEFAULT_LABELS: Record<string, string> = { safe: 'Safe', need_help: 'Need help' };

/** An answer option's text: the default options in the reader's language, others as written. */
export function optionLabel(option: Pick<CallEventOption, 'id' | 'label'>, t: TFunction<'calltree'>): string {
  if (DEFAULT_LABELS[option.id] === option.label) return t(`status.${option.id as 'safe' | 'need_help'}`);
  return option.label;
}

/** A status's text (Safe, Need help, No answer). */
export function statusLabel(status: CallStatus, t: TFunction<'calltree'>): string {
  return t(`status.${status}`);
}

/** The MUI colour of a status. */
export function statusColor(status: CallStatus): 'success' | 'error' | 'warning' {
  return status === 'safe' ? 'success' : status === 'need_help' ? 'error' : 'warning';
}
