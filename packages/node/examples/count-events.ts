import { readLog } from '@cursor-stream/node/logs';

let events = 0;
const read = await readLog(process.argv[2] ?? '-', {
  onEvents(batch) {
    events += batch.length;
  },
});
if (read.ok) console.log(`${events} events, ${read.value.invalidLines} invalid lines`);
else console.error(`${read.error.path}: ${read.error.message}`);
