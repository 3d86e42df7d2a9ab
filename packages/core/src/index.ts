/**
 * `@cursor-stream/core`: canonical events from any dialect of cursor-agent output, with the schema validators loaded.
 * `@cursor-stream/core/normalize` is the same API without them, for a faster start.
 */

import './validation/install-generated-validators.ts';

export * from './normalize.ts';
