/**
 * `@cursor-stream/core/failures`: the classes of a failed cursor-agent run (`trust-required`, `auth`, `usage-limit`,
 * ...) and the table of the CLI's sentences that tells them apart.
 */

export {
  classifyFailure,
  FAILURE_CLASSES,
  FAILURE_CODES,
  type FailureClass,
  type FailureCode,
} from './failure-classes.ts';
