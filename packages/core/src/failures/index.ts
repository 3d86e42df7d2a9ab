/**
 * `@cursor-stream/core/failures`: the classes of a failed cursor-agent run (`trust-required`, `auth`, `usage-limit`,
 * ...), the table of the CLI's sentences that tells them apart, and the lines that never say why a run failed.
 */

export {
  classifyFailure,
  FAILURE_CLASSES,
  FAILURE_CODES,
  type FailureClass,
  type FailureCode,
} from './failure-classes.ts';
export { saysNothing } from './silent-lines.ts';
