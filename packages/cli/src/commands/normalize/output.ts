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
 */
export function eventLines(events: readonly CanonicalEvent[]): string | Uint8Array {
  const buffers: Uint8Array[] = [];
  let texts: string[] = [];
  for (const event of events) {
    for (const piece of linePieces(event)) {
      if (typeof piece === 'string') texts.push(piece);
      else {
        buffers.push(Buffer.from(texts.join('')), piece);
        texts = [];
      }
    }
    texts.push('\n');
  }
  if (buffers.length === 0) return texts.join('');
  buffers.push(Buffer.from(texts.join('')));
  return Buffer.concat(buffers);
}
