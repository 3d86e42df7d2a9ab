/**
 * Vitest global setup: rebuilds the CLI bundle before the tests, so that end-to-end tests, which run the shipped bin,
 * never run a bundle older than the sources.
 */
// @ts-expect-error: a plain ES module script without declarations.
import { bundleCli } from '../packages/cli/scripts/bundle.mjs';

export default async function setup(): Promise<void> {
  await bundleCli();
}
