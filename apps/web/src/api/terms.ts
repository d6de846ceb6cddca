import type {
  AcceptTermsRequest,
  CurrentTerms,
  PublishTermsRequest,
  TermsAcceptance,
  TermsAcceptanceList,
  TermsLocale,
  TermsVersionList,
  TermsVersionSummary,
} from '@btalk/contracts';
import type { ApiClient } from './client.ts';

/** Query key of the current terms in one language (the terms screen and the session gate share it). */
export const currentTermsKey = (locale: TermsLocale) => ['terms', 'current', locale] as const;
/** Query key of the session gate's check whether the person accepted the current terms. */
export const TERMS_GATE_KEY = ['terms', 'gate'] as const;
/** Query key of the administrators' list of versions. */
export const TERMS_VERSIONS_KEY = ['terms', 'versions'] as const;

/** `/api/terms`: the terms of use, their acceptance and, for administrators, their versions. */
export function termsApi(client: ApiClient) {
  return {
    /** The current version in `locale`, and whether the caller accepted it. */
    current: (locale: TermsLocale) => client.get<CurrentTerms>('/terms/current', { locale }),
    /** Accepts a version; an outdated one is refused with envelope code 4405. */
    accept: (request: AcceptTermsRequest) => client.post<TermsAcceptance>('/terms/acceptances', request),
    /** The caller's acceptances, newest first. */
    myAcceptances: () => client.get<TermsAcceptanceList>('/terms/acceptances'),
    /** Every version with its acceptance count (administrators). */
    versions: () => client.get<TermsVersionList>('/terms/versions'),
    /** Publishes a new version in both languages (administrators); everyone accepts it again. */
    publish: (request: PublishTermsRequest) => client.post<TermsVersionSummary>('/terms/versions', request),
  };
}
