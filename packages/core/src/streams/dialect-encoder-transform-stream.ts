/**
 * Canonical events back out as NDJSON of any dialect that can encode, e.g. for a server that speaks the
 * payload-envelope format to the app's existing clients.
 */

import type { Dialect } from '../dialect.ts';
import type { CanonicalEvent } from '../events.ts';

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
  /** @throws TypeError when the dialect has no `encode`. */
  constructor(dialect: Dialect) {
    const encode = dialect.encode?.bind(dialect);
    if (encode === undefined) throw new TypeError(`The ${dialect.name} dialect cannot encode events.`);
    // Errors wait here for the event after them; see above.
    let heldErrors: CanonicalEvent[] = [];
    const write = (
      events: readonly CanonicalEvent[],
      controller: TransformStreamDefaultController<string>,
    ) => {
      for (const record of encode(events)) controller.enqueue(`${JSON.stringify(record)}\n`);
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
