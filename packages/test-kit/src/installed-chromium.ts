/** Whether Chromium is here, apart from starting it, so that the run's skip notes can ask without loading a browser. */
import { existsSync } from 'node:fs';

/** Debian's Chromium (package `chromium`, which CI installs). */
export const CHROMIUM = '/usr/bin/chromium';

/** Whether Chromium is installed here. */
export const hasChromium = existsSync(CHROMIUM);

/** For a browser suite's title: what it needs, so that a skipped suite says what is missing. */
export const CHROMIUM_NEEDS = `(needs ${CHROMIUM})`;
