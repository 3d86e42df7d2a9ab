import type { Dialect } from '../dialect.ts';
import { type AcpState, acpDialect } from './acp.ts';
import type { CliStreamState } from './cli-records.ts';
import { type CursorSdkState, cursorSdkDialect } from './cursor-sdk.ts';
import { officialDialect } from './official.ts';
import { payloadEnvelopeDialect } from './payload-envelope.ts';
import { pythonWrapperDialect } from './python-wrapper.ts';
import { BUILT_IN_DIALECT_NAMES, type BuiltInDialectName } from './registry.ts';

/** The state each built-in dialect keeps per stream. */
interface StateByName {
  official: CliStreamState;
  'python-wrapper': CliStreamState;
  'payload-envelope': CliStreamState;
  'cursor-sdk': CursorSdkState;
  acp: AcpState;
}

/**
 * Each built-in dialect by its entry in the registry. The type is the agreement: this does not compile while an
 * entry has no dialect, a dialect has no entry, or a dialect's own `name` is not its entry's.
 */
const DIALECT_BY_NAME: { readonly [Name in BuiltInDialectName]: Dialect<StateByName[Name], Name> } = {
  official: officialDialect,
  'python-wrapper': pythonWrapperDialect,
  'payload-envelope': payloadEnvelopeDialect,
  'cursor-sdk': cursorSdkDialect,
  acp: acpDialect,
};

/**
 * The built-in dialects, in the order auto-detection tries them: when a shared record could be any of them, the
 * first that explains it normalizes it.
 */
export const BUILT_IN_DIALECTS: readonly Dialect[] = Object.freeze(
  BUILT_IN_DIALECT_NAMES.map((name) => DIALECT_BY_NAME[name] as Dialect),
);
