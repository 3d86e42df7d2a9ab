/**
 * The harness's id: the key of its metadata in parts (`harnessMetadata`, `providerMetadata`) and the id lifecycle
 * states are checked against.
 */
export const CURSOR_HARNESS_ID = 'cursor-stream';
