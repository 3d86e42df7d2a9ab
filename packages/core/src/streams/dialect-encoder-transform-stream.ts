/**
 * Canonical events back out as NDJSON of any dialect that can encode, e.g. for a server that speaks the
 * payload-envelope format to the app's existing clients.
 */

import type { Dialect } from '../dialect.ts';
import type { CanonicalEvent, InvalidLineEvent } from '../events/index.ts';
import { safeJsonStringify, unwritableEvent } from '../safe-json.ts';

/** Options of {@link DialectEncoderTransformStream}. */
export interface DialectEncoderOptions {
  /** Called for each record that cannot be written as JSON; see the constructor. */
  onProblem?: (problem: InvalidLineEvent) => void;
}

/**
 * A `TransformStream` from canonical events to NDJSON lines (each one record and its LF) of `dialect`, through
 * {@link Dialect.encode}.
 *
 * Events a dialect cannot express give no line: `invalid-line` in every built-in dialect, and the synthesized
 * `incomplete` finish (the normalizer synthesizes it again at the end). An `error` is held until the next event, so a
 * dialect that writes a result's error inside the failed `result` record (`official`) sees both together.
 *
 * @example
 * ```ts
 * const lines = agentBytes
 *   .pipeThrough(new NormalizerTransformStream())
 *   .pipeThrough(new DialectEncoderTransformStream(payloadEnvelopeDialect));
 * ```
 */
export class DialectEncoderTransformStream extends TransformStream<CanonicalEvent, string> {
  /**
   * @param options - `onProblem` hears of each record that cannot be written (nested deeper than
   *   `MAX_SERIALIZED_DEPTH` levels, or holding a value with no JSON form), as the `invalid-line` that stands for the
   *   event it came from; the record gives no line and the stream goes on.
   * @throws TypeError when the dialect has no `encode`.
   */
  constructor(dialect: Dialect, options: DialectEncoderOptions = {}) {
    const { onProblem } = options;
    const encode = dialect.encode?.bind(dialect);
    if (encode === undefined) throw new TypeError(`The ${dialect.name} dialect cannot encode events.`);
    // Errors wait here for the event after them; see above.
    let heldErrors: CanonicalEvent[] = [];
    const write = (
      events: readonly CanonicalEvent[],
      controller: TransformStreamDefaultController<string>,
    ) => {
      const last = events.at(-1) as CanonicalEvent;
      let records: readonly unknown[];
      try {
        records = encode(events);
      } catch (error) {
        // A built-in encoder does not throw, but a third party's might, on an event a caller built.
        onProblem?.(
          unwritableEvent(last, { code: 'invalid-json', message: `cannot be encoded: ${String(error)}` }),
        );
        return;
      }
      for (const record of records) {
        const written = safeJsonStringify(record);
        if (written.ok) controller.enqueue(`${written.text}\n`);
        else onProblem?.(unwritableEvent(last, written));
      }
    };
    super({
      transform(event, controller) {
        if (event.type === 'error') {
          heldErrors.push(event);
          return;
        }
        write([...heldErrors, event], controller);
        heldErrors = [];
      },
      flush(controller) {
        if (heldErrors.length > 0) write(heldErrors, controller);
      },
    });
  }
}
