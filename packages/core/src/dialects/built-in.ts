import type { Dialect } from '../dialect.ts';
import { officialDialect } from './official.ts';
import { payloadEnvelopeDialect } from './payload-envelope.ts';
import { pythonWrapperDialect } from './python-wrapper.ts';

/**
 * The built-in dialects, in the order auto-detection tries them: when a shared record could be any of them, the
 * first that explains it normalizes it.
 */
export const BUILT_IN_DIALECTS: readonly Dialect[] = Object.freeze([
  officialDialect as Dialect,
  pythonWrapperDialect as Dialect,
  payloadEnvelopeDialect as Dialect,
]);
