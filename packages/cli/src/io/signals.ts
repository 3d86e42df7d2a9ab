/** The process signals commands wait on: an interrupt that ends a follow, and the stop of a server. */

/** Aborts on the first SIGINT, so that `--follow` ends like a log that ended; the listener goes with `release`. */
export function interruptSignal(): { signal: AbortSignal; release(): void } {
  const controller = new AbortController();
  const onInterrupt = (): void => controller.abort();
  process.once('SIGINT', onInterrupt);
  return { signal: controller.signal, release: () => process.removeListener('SIGINT', onInterrupt) };
}

/** Resolves with the first SIGINT or SIGTERM, then stops listening for both. */
export function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}
