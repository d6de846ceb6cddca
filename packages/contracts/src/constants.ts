/**
 * The contracts' constants without zod, for `@btalk/contracts/constants`: envelope codes, event
 * names, the realtime protocol's message types and close codes, and the lengths and sets of the
 * requests. The web app imports these at run time (the full `@btalk/contracts` would bring zod into
 * its bundle); the zod schemas use the same values. Every module listed here imports nothing.
 */
export * from './errors.ts';
export * from './eventNames.ts';
export * from './limits.ts';
export * from './realtimeCodes.ts';
export * from './uploadRules.ts';
