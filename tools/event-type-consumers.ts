/**
 * Where a new canonical event type must be handled: every file that decides something by an event's type with no
 * default to fall back on, so that `tsc -b` names each of them once a type is added to the union in
 * `packages/core/src/events/events.ts` (and to `CANONICAL_EVENT_TYPES`). `tools/test/event-type-probe.test.ts` adds a
 * probe type to a copy of the workspace and checks that the compiler names exactly these files: a consumer that stops
 * asking (a `default` that swallows new types) or a new one that starts to fails it until this list says so.
 *
 * Everything else that reads events decides by `EVENT_TRAITS` (session boundaries, the run's held finish, the
 * timeline's reasoning bars, the bench's reasoning filter) or acts on a few named types only, and needs no change.
 */

/** A file the compiler names for a new event type, and what it must decide about one. */
export interface EventTypeConsumer {
  /** Path from the repository's root. */
  readonly file: string;
  /** What the file decides for each type. */
  readonly decides: string;
}

/** Every {@link EventTypeConsumer}, by package. */
export const EVENT_TYPE_CONSUMERS: readonly EventTypeConsumer[] = [
  {
    file: 'packages/core/src/events/event-traits.ts',
    decides: 'the type’s traits: whether it is session content, whether it is reasoning',
  },
  {
    file: 'packages/core/src/validation/canonical-schema-types.ts',
    decides: 'nothing of its own: it compiles once schemas/canonical-event.schema.json defines the type',
  },
  {
    file: 'packages/core/src/sessions/session-reducer.ts',
    decides: 'what a session’s summary takes from it',
  },
  {
    file: 'packages/core/src/normalizer/session-tracker.ts',
    decides: 'whether it changes a session’s open tool calls or the sentence saying why it failed',
  },
  {
    file: 'packages/core/src/dialects/official-encoder.ts',
    decides: 'the official record it is written as, if any',
  },
  {
    file: 'packages/core/src/dialects/python-wrapper-encoder.ts',
    decides: 'the Python wrapper’s record it is written as, if any',
  },
  {
    file: 'packages/core/src/dialects/payload-envelope-encoder.ts',
    decides: 'the payload envelope it is written as, if any',
  },
  {
    file: 'packages/core/src/dialects/acp-encoder.ts',
    decides: 'the ACP message it is written as, if any',
  },
  {
    file: 'packages/core/src/dialects/cursor-sdk-encoder.ts',
    decides: 'the `@cursor/sdk` run stream event it is written as, if any',
  },
  { file: 'packages/inspect/src/transcript/transcript.ts', decides: 'its line in `render` and the report' },
  { file: 'packages/inspect/src/report/timeline.ts', decides: 'its bar on a report’s timeline, if any' },
  {
    file: 'packages/ai-sdk/src/ui-message-encoder.ts',
    decides: 'the AI SDK UI message chunks it becomes, if any',
  },
  { file: 'packages/relay/page/transcript.ts', decides: 'its item on the relay’s live page, if any' },
  { file: 'packages/export/src/session-collector.ts', decides: 'what the exported rows take from it' },
];
