/** An entry that must not bundle for the browser: it imports Node built-ins, with and without the prefix. */

import { readFileSync } from 'node:fs';
// biome-ignore lint/style/useNodejsImportProtocol: the unprefixed name is one of the two forms this fixture tests.
import { join } from 'path';

/** Reads a file next to this one (never run: the bundle fails first). */
export const readBeside = (name: string): string => readFileSync(join(import.meta.dirname, name), 'utf8');
