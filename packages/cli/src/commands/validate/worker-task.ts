/** `validate` on a pool worker: one file at a time, validated as on the main thread. */

import type { FileReport } from '@cursor-stream/inspect/validate';
import type { CreateTaskRunner } from '@cursor-stream/node/ranges';
import type { Result } from '../../io/cli-error.ts';
import { type ValidateLogOptions, validateLog } from './validate-log.ts';

// Workers never read standard input: the main thread validates `-` itself.
const noInput: AsyncIterable<Uint8Array> = { async *[Symbol.asyncIterator]() {} };

/** `validate`'s runner for a pool worker: a task is a file's path, its outcome the file's report or why it has none. */
export const createTaskRunner: CreateTaskRunner<ValidateLogOptions, string, Result<FileReport>> =
  (options) => (path, progress) =>
    validateLog(path, options, { stdin: noInput, progress: () => progress });
