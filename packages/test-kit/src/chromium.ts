/**
 * The browser the browser checks run in: Debian's Chromium, started through playwright-core with flags for a closed
 * network. Suites skip where it is not installed, naming it in their titles ({@link CHROMIUM_NEEDS}); under CI a
 * missing Chromium is a failure instead ({@link failWithoutChromiumInCi}).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { test } from 'vitest';
import { CHROMIUM, hasChromium } from './installed-chromium.ts';

export { CHROMIUM, CHROMIUM_NEEDS, hasChromium } from './installed-chromium.ts';

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

/** Starting Chromium takes seconds on a busy machine: more than a hook's default allowance. */
export const BROWSER_START_MS = 60_000;

/** Under CI, where Chromium must be installed, adds a failing test for `check` when it is not, rather than a skip. */
export function failWithoutChromiumInCi(check: string): void {
  if (hasChromium || !process.env.CI) return;
  test(`Chromium is installed for ${check}`, () => {
    throw new Error(`${CHROMIUM} not found: CI must install Debian's chromium package before the tests.`);
  });
}

/** Headless Chromium with a throwaway profile. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
}

/** A browser with a profile of its own. */
export interface ChromiumContext {
  readonly context: BrowserContext;
  /** Closes the browser and removes its profile. */
  close(): Promise<void>;
}

/** Headless Chromium with a profile of its own in a scratch folder. */
export async function launchChromiumContext(): Promise<ChromiumContext> {
  const profile = mkdtempSync(join(tmpdir(), 'cursor-stream-chromium-'));
  const removeProfile = () => rmSync(profile, { recursive: true, force: true });
  try {
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
    });
    return {
      context,
      async close() {
        await context.close();
        removeProfile();
      },
    };
  } catch (error) {
    removeProfile();
    throw error;
  }
}
