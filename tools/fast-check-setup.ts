import fc from 'fast-check';

/*
 * Property tests run with a fixed seed so that CI is reproducible. For long local runs set
 * FC_NUM_RUNS (e.g. 20000) and FC_SEED (any integer, or "random").
 */
const seedSetting = process.env.FC_SEED ?? '20261121';
const seed = seedSetting === 'random' ? Date.now() : Number(seedSetting);
const numRuns = Number(process.env.FC_NUM_RUNS ?? '200');

if (!Number.isInteger(seed) || !Number.isInteger(numRuns) || numRuns <= 0) {
  throw new Error(`FC_SEED must be an integer or "random" and FC_NUM_RUNS a positive integer`);
}
fc.configureGlobal({ seed, numRuns });
