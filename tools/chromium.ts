/**
 * The browser the browser checks run in: Debian's Chromium (package `chromium`, which CI installs), with flags for a
 * closed network. Suites skip, saying why, where it is not installed.
 */
import { existsSync } from 'node:fs';

/** Debian's Chromium. */
export const CHROMIUM = '/usr/bin/chromium';

/** Flags for a closed network: no background connections, no sandbox as root, no GPU. */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Whether Chromium is installed here. */
export const hasChromium = existsSync(CHROMIUM);

/** Why a browser suite is skipped, for its title. */
export const chromiumSkipReason = `skipped: ${CHROMIUM} not found (install Debian's chromium package to run it)`;
