/**
 * `@cursor-stream/core/redact`: secrets taken out of a log before it is shared. API keys and tokens in the known
 * formats (Cursor, OpenAI, Anthropic, GitHub, AWS, Slack, Google, JWTs, bearer headers), private keys, environment
 * listings, values of variables and fields named like secrets, e-mail addresses and home directories are each
 * replaced by a typed placeholder (`[redacted:github-token]`) and counted by kind. Pure, bounded work per character.
 */

export type { RedactionOptions } from './redact-text.ts';
export { createRedactor, type Redactor, redactEvents, redactText } from './redactor.ts';
export {
  placeholderOf,
  REDACTION_KINDS,
  type RedactionCounts,
  type RedactionKind,
} from './secret-kinds.ts';
export { isEnvironmentName, isSecretName } from './secret-names.ts';
