/**
 * The normalizer with the built-in dialects as its default: the entry point most consumers want. The engine
 * underneath knows dialects only through the plugin interface.
 */

import { type NdjsonSource, readChunks } from '@cursor-stream/ndjson';
import type { Dialect } from './dialect.ts';
import { BUILT_IN_DIALECTS } from './dialects/built-in.ts';
import type { CanonicalEvent } from './events/index.ts';
import { createNormalizerEngine } from './normalizer/normalizer-engine.ts';
import type { Normalizer, NormalizerOptions } from './normalizer/normalizer-types.ts';

function forcedDialect(name: string | undefined, dialects: readonly Dialect[]): Dialect | undefined {
  if (name === undefined || name === 'auto') return undefined;
  const dialect = dialects.find((candidate) => candidate.name === name);
  if (dialect === undefined) {
    const known = ['auto', ...dialects.map((candidate) => candidate.name)].join(', ');
    throw new Error(`Unknown dialect "${name}": expected one of ${known}.`);
  }
  return dialect;
}

/**
 * Creates a normalizer for one stream: NDJSON in (any chunking), canonical events out. Detection, routing and
 * sessions are per normalizer, so use one per stream.
 *
 * @example
 * ```ts
 * const normalizer = createNormalizer();
 * for await (const chunk of process.stdin) for (const event of normalizer.feed(chunk)) handle(event);
 * for (const event of normalizer.end()) handle(event);
 * ```
 * @throws Error when `options.dialect` names no dialect of `options.dialects` (a misuse, not an input problem:
 *   input problems become `invalid-line` events, never exceptions).
 */
export function createNormalizer(options: NormalizerOptions = {}): Normalizer {
  const list = options.dialects ?? BUILT_IN_DIALECTS;
  // The options as given, not a copy with the dialects added: V8 copies through a slow path, and a folder of small
  // logs makes a normalizer per log.
  return createNormalizerEngine(options, { list, forced: forcedDialect(options.dialect, list) });
}

/**
 * Reads a stream of chunks (a Node `Readable`, a `fetch` body, an array) and yields its canonical events.
 *
 * @throws Error on an unknown `options.dialect`, as {@link createNormalizer}.
 */
export async function* normalizeStream(
  source: NdjsonSource,
  options: NormalizerOptions = {},
): AsyncGenerator<CanonicalEvent> {
  const normalizer = createNormalizer(options);
  for await (const chunk of readChunks(source)) yield* normalizer.feed(chunk);
  yield* normalizer.end();
}
