/** `validate` on a pool worker: one file at a time, validated as on the main thread. */

import type { CreateTaskRunner } from '@cursor-stream/node/ranges';
import { type ValidateLogOptions, type ValidateLogResult, validateLog } from './validate-log.ts';

// Workers never read standard input: the main thread validates `-` itself.
const noInput: AsyncIterable<Uint8Array> = { async *[Symbol.asyncIterator]() {} };

/** `validate`'s runner for a pool worker: a task is a file's path, its outcome the file's report or why it has none. */
export const createTaskRunner: CreateTaskRunner<ValidateLogOptions, string, ValidateLogResult> =
  (options) => (path, progress) =>
    validateLog(path, options, { stdin: noInput, progress: () => progress });
