/**
 * The NDJSON lines of a batch of canonical events, as `normalize` writes them. Long strings the tokenizer never
 * decoded are copied from the input's bytes into the output, so a tool output of megabytes is neither decoded,
 * escaped again nor encoded again; the bytes written are exactly those of `stringifyEvent`'s lines.
 */

import { isUtf8 } from 'node:buffer';
import {
  type CanonicalEvent,
  type EventPiece,
  stringifyEvent,
  stringifyEventPieces,
} from '@cursor-stream/core/normalize';

/** The pieces of one event's line; whole text when a copied piece is not valid UTF-8 (its decoding would differ). */
function linePieces(event: CanonicalEvent): readonly EventPiece[] {
  const pieces = stringifyEventPieces(event);
  if (pieces.length === 1) return pieces;
  return pieces.every((piece) => typeof piece === 'string' || isUtf8(piece))
    ? pieces
    : [stringifyEvent(event)];
}

/**
 * The lines of `events`, each ended by a line feed: one string when no event has a copied piece (one join per batch,
 * not a string per line), else the bytes of the whole batch.
 *
 * @param file - The log the events come from, written as each line's first field (`{"file":"a.ndjson","type":...`)
 *   when several logs are read; the rest of the line is the event as one log gives it.
 */
export function eventLines(events: readonly CanonicalEvent[], file?: string): string | Uint8Array {
  // Every event is an object with a type, so its line opens with `{"`: the field goes in after the brace.
  const lead = file === undefined ? undefined : `{"file":${JSON.stringify(file)},`;
  const buffers: Uint8Array[] = [];
  let texts: string[] = [];
  for (const event of events) {
    let first = true;
    for (const piece of linePieces(event)) {
      if (typeof piece !== 'string') {
        buffers.push(Buffer.from(texts.join('')), piece);
        texts = [];
      } else texts.push(first && lead !== undefined ? lead + piece.slice(1) : piece);
      first = false;
    }
    texts.push('\n');
  }
  if (buffers.length === 0) return texts.join('');
  buffers.push(Buffer.from(texts.join('')));
  return Buffer.concat(buffers);
}
