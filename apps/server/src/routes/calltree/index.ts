import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { callAnswerRoutes } from './answers.ts';
import { callEventRoutes } from './events.ts';
import { callTreeRoutes } from './trees.ts';

/** The call tree's resources: trees, events (with the roll-up and reports) and answers. */
export function calltreeRoutes(ctx: AppContext): FastifyPluginAsyncZod[] {
  return [callTreeRoutes(ctx), callEventRoutes(ctx), callAnswerRoutes(ctx)];
}
