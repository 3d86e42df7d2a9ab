/** What the test page runs: the views of a recording, made in the page, handed to the test through `check`. */

import { viewsOf } from './views-of.ts';

(globalThis as { check?: unknown }).check = { viewsOf };
