import type { FastifyInstance } from 'fastify';
import { entraTenantOf } from '../auth/directoryClient.ts';
import { directoryPeopleSyncer } from '../commands/directoryPeopleSyncer.ts';
import { transact } from '../commands/transact.ts';
import type { AppContext } from '../context.ts';
import { DEVELOPMENT_TENANT_ID, people, shownName } from './people.ts';
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
 * Puts every person of the development directory in the users table (keyed by its issuer and their
 * id), with their manager, so that the organisation tree is whole before anyone signs in.
 */
export async function syncDevelopmentPeople(ctx: AppContext): Promise<number> {
  return transact(ctx, (trx) =>
    directoryPeopleSyncer(
      trx,
      ctx.config.directory.issuer,
      people.map((p) => ({
        subject: p.id,
        tenantId: DEVELOPMENT_TENANT_ID,
        email: p.email,
        displayName: shownName(p),
        department: p.department,
        jobTitle: p.jobTitle,
        phone: p.mobilePhone,
        managerSubject: p.managerId,
        locale: p.preferredLanguage,
        admin: p.role === 'admin',
      })),
    ),
  );
}

/**
 * Brings the users table up to date with the directory before a call tree is built from it or
 * refreshed: the development directory's people, or on Entra ID every enabled person listed through
 * Graph with BTalk's app token. A generic OpenID Connect directory lists no one: its people arrive
 * as they sign in.
 */
export async function syncDirectoryPeople(ctx: AppContext): Promise<void> {
  const { kind, issuer } = ctx.config.directory;
  if (kind === 'development') {
    if (ctx.config.env !== 'production') await syncDevelopmentPeople(ctx);
    return;
  }
  if (kind !== 'entra') return;
  const listed = await ctx.directory.listPeople(entraTenantOf(issuer));
  if (listed) await transact(ctx, (trx) => directoryPeopleSyncer(trx, issuer, listed));
}
