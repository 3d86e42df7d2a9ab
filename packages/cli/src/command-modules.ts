/**
 * Where the modules a worker thread loads for a command are: `commands/<name>/<module>.ts` in the sources, and the
 * `<name>-<module>.js` the bundle makes of each beside its chunks (see `scripts/bundle.mjs`).
 */

/** The modules of a command that a worker loads by URL. */
export type WorkerModule = 'range-consumer' | 'worker-task';

/** The URL of a command's module that a worker loads: its range consumer, or its pool task runner. */
export function commandModuleUrl(command: string, module: WorkerModule): URL {
  return import.meta.url.endsWith('.ts')
    ? new URL(`./commands/${command}/${module}.ts`, import.meta.url)
    : new URL(`./${command}-${module}.js`, import.meta.url);
}
