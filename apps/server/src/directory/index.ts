import type { FastifyInstance } from 'fastify';
import { entraTenantOf } from '../auth/directoryClient.ts';
import {
  type DirectoryListing,
  type DirectorySyncSummary,
  directoryPeopleSyncer,
} from '../commands/directoryPeopleSyncer.ts';
import { transact } from '../commands/transact.ts';
import type { AppContext } from '../context.ts';
import { accountEnabled, DEVELOPMENT_TENANT_ID, people, shownName } from './people.ts';
import { createDevelopmentDirectory } from './provider.ts';
import { mountDevelopmentDirectory } from './routes.ts';

/** Mounts the built-in development directory when it is the configured one (never in production). */
export async function registerDevelopmentDirectory(app: FastifyInstance, ctx: AppContext): Promise<void> {
  if (ctx.config.directory.kind !== 'development' || ctx.config.env === 'production') return;
  const directory = await createDevelopmentDirectory({
    config: ctx.config,
    db: ctx.db.kysely,
    clientSecret: ctx.directory.clientSecret,
    secret: ctx.secret,
    logError: (error, message) => app.log.error({ err: error }, message),
  });
  await mountDevelopmentDirectory(app, directory);
}

/**
 * The development directory's full listing, in-process: what its Graph subset answers to BTalk's app
 * token (accounts enabled or not, the `BTalk.Admin` app role), without an HTTP round trip, so that it
 * also works before the server listens and in tests that do not listen.
 */
export function developmentListing(): DirectoryListing {
  return {
    people: people.map((p) => ({
      subject: p.id,
      tenantId: DEVELOPMENT_TENANT_ID,
      email: p.email,
      displayName: shownName(p),
      givenName: p.givenName,
      surname: p.surname,
      department: p.department,
      jobTitle: p.jobTitle,
      phone: p.mobilePhone,
      managerSubject: p.managerId,
      locale: p.preferredLanguage,
      admin: p.role === 'admin',
      enabled: accountEnabled(p),
    })),
    complete: true,
  };
}

/**
 * Puts every person of the development directory in the users table (keyed by its issuer and their
 * id), with their manager, so that the organisation tree is whole before anyone signs in; applies
 * their admin role and disabled accounts as any directory sync does.
 */
export async function syncDevelopmentPeople(ctx: AppContext): Promise<DirectorySyncSummary> {
  return transact(ctx, (trx) =>
    directoryPeopleSyncer(trx, ctx.config.directory.issuer, developmentListing()),
  );
}

/**
 * Brings the users table up to date with the directory (before a call tree is built from it or
 * refreshed, and every DIRECTORY_SYNC_INTERVAL_MINUTES): the development directory's people, or on
 * Entra ID everyone listed through Graph with BTalk's app token. People, their managers, the admin
 * role where it comes from the directory, and disabled accounts (directoryPeopleSyncer). A generic
 * OpenID Connect directory lists no one: its people arrive as they sign in. Null when nothing was listed.
 */
export async function syncDirectoryPeople(ctx: AppContext): Promise<DirectorySyncSummary | null> {
  const { kind, issuer } = ctx.config.directory;
  if (kind === 'development') {
    return ctx.config.env !== 'production' ? syncDevelopmentPeople(ctx) : null;
  }
  if (kind !== 'entra') return null;
  const listing = await ctx.directory.listPeople(entraTenantOf(issuer));
  return applyDirectoryListing(ctx, listing);
}

/** Applies a listing of the configured directory's people (directoryPeopleSyncer) in one transaction. */
export async function applyDirectoryListing(
  ctx: AppContext,
  listing: DirectoryListing | null,
): Promise<DirectorySyncSummary | null> {
  if (!listing) return null;
  return transact(ctx, (trx) => directoryPeopleSyncer(trx, ctx.config.directory.issuer, listing));
}
