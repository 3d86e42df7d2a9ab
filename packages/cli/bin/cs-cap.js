#!/usr/bin/env node
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

const CAP = Number(process.env.CAP_MB ?? 8) * 1024 * 1024;
setFlagsFromString('--semi-space-growth-factor=2');
const watch = new PerformanceObserver((list, observer) => {
  const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  if (young !== undefined && young.space_size >= CAP) {
    setFlagsFromString('--semi-space-growth-factor=1');
    observer.disconnect();
  }
});
watch.observe({ entryTypes: ['gc'] });
const { main } = await import('../bundle/cli.js');
process.exitCode = await main(process.argv.slice(2));
