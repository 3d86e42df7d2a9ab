import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  type CanonicalEvent,
  createNormalizer,
  type Normalizer,
  type NormalizerOptions,
} from '@cursor-stream/core';
import { BUILT_IN_DIALECT_REGISTRY } from '@cursor-stream/core/dialect-registry';
import { CORPUS_DIR } from '@cursor-stream/test-kit/corpus';

/** The paths of this repository's recordings of the built-in dialects: each registry entry's corpus folder. */
export function dialectRecordings(): string[] {
  return BUILT_IN_DIALECT_REGISTRY.flatMap(({ corpusFolder }) =>
    readdirSync(join(CORPUS_DIR, corpusFolder))
      .filter((name) => name.endsWith('.ndjson'))
      .map((name) => join(CORPUS_DIR, corpusFolder, name)),
  );
}

/** Every event of `input` fed to a fresh normalizer in the given chunks, `end()` included. */
export function normalizeChunks(
  chunks: readonly (string | Uint8Array)[],
  options?: NormalizerOptions,
): { events: CanonicalEvent[]; normalizer: Normalizer } {
  const normalizer = createNormalizer(options);
  const events: CanonicalEvent[] = [];
  for (const chunk of chunks) events.push(...normalizer.feed(chunk));
  events.push(...normalizer.end());
  return { events, normalizer };
}

/** Every event of `input` in one chunk. */
export function normalizeText(input: string | Uint8Array, options?: NormalizerOptions): CanonicalEvent[] {
  return normalizeChunks([input], options).events;
}

/** Events without `loc`, for comparing what two inputs mean rather than where it stood. */
export function withoutLoc(events: readonly CanonicalEvent[]): CanonicalEvent[] {
  return events.map(({ loc: _loc, ...rest }) => {
    if (rest.type !== 'finish' || rest.failure === undefined) return rest as CanonicalEvent;
    const { loc: _failureLoc, ...failure } = rest.failure;
    return { ...rest, failure } as CanonicalEvent;
  });
}

/** The assistant text of some events: every `text-delta` joined. */
export function assistantText(events: readonly CanonicalEvent[]): string {
  return events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
}

/** The events of one type. */
export function ofType<T extends CanonicalEvent['type']>(
  events: readonly CanonicalEvent[],
  type: T,
): Extract<CanonicalEvent, { type: T }>[] {
  return events.filter((event): event is Extract<CanonicalEvent, { type: T }> => event.type === type);
}
