import type { MeAbilities } from '@btalk/contracts';
import type { UserRow } from '../db/schema.ts';
import { canCreateTrees } from './calltree.ts';
import { can as canDeliveries } from './notificationDelivery.ts';
import { can as canPeople } from './person.ts';
import { can as canTerms } from './terms.ts';
import { can as canUploads } from './uploadSettings.ts';

/**
 * What a person may do in BTalk as a whole, for `GET /api/me` and the sign-in answer: each ability is
 * the rule of the policy that guards the action, so the web app never decides by the role itself.
 * - the terms administration: whoever may publish terms (`terms.ts`);
 * - the notification outbox: whoever may list deliveries (`notificationDelivery.ts`);
 * - the People screen: whoever may list people there (`person.ts`);
 * - the refused file types of uploads: whoever may change them (`uploadSettings.ts`);
 * - building call trees: an enabled person who may create one (`calltree.ts`).
 */
export function meAbilities(user: UserRow): MeAbilities {
  return {
    manageTerms: canTerms(user, 'publish'),
    manageDeliveries: canDeliveries(user, 'list'),
    managePeople: canPeople(user, 'list'),
    manageUploads: canUploads(user, 'update'),
    createCallTrees: !user.disabled && canCreateTrees(user),
  };
}
