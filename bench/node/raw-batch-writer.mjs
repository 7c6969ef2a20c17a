// The raw Node SDK writer of issue #29: the flights CSV the startup benchmark writes, built into entities before the
// clock starts (the loader's keys, properties and types: PartitionKey {dest}, RowKey {year}-{month}-{day}-{carrier}-{flight},
// every non-empty column a property, the Int32 columns as numbers, cancelled as a boolean, the rest as strings), then sent
// with @azure/data-tables as entity group transactions of up to 100 entities of one partition (insert-or-replace, as the
// loader's Upsert), a fixed number in flight. Only the writing is timed. Prints one JSON line:
// {"rows","requests","seconds","failedRequests","firstError"}.
//
//   node bench/node/raw-batch-writer.mjs --input <csv> --connection-string <cs> --table <name> [--in-flight 4] [--batch-size 100]
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

// The SDK lives in tools/node_modules (scripts/ensure-tools.sh installs it from tools/package-lock.json).
const require = createRequire(new URL('../../tools/package.json', import.meta.url));
const { TableClient } = require('@azure/data-tables');

const { values: options } = parseArgs({
  options: {
    input: { type: 'string' },
    'connection-string': { type: 'string' },
    table: { type: 'string' },
    'in-flight': { type: 'string', default: '4' },
    'batch-size': { type: 'string', default: '100' },
  },
});
for (const name of ['input', 'connection-string', 'table']) {
  if (!options[name]) {
    console.error(`--${name} is required`);
    process.exit(2);
  }
}
const inFlight = Number.parseInt(options['in-flight'], 10);
const batchSize = Number.parseInt(options['batch-size'], 10);

// The benchmark's column types (bench/Loader.Benchmarks/FlightSchema.cs); its CSV has no quoted fields.
const int32Columns = new Set(['year', 'month', 'day', 'flight', 'dep_delay', 'arr_delay', 'distance']);
const booleanColumns = new Set(['cancelled']);
const rowKeyColumns = ['year', 'month', 'day', 'carrier', 'flight'];

const lines = readFileSync(options.input, 'utf8').split('\n').filter((line) => line.length > 0);
const header = lines[0].split(',');
const partitionIndex = header.indexOf('dest');
const rowKeyIndexes = rowKeyColumns.map((name) => header.indexOf(name));

// Batches as the loader's batcher makes them (Upsert): per partition, in input order, sent when full; a key that repeats
// in an open batch replaces the earlier row where it stood (one transaction may not hold the same entity twice, and the
// later row wins either way); the partial ones follow in the order their partitions appeared.
const batches = [];
const open = new Map();
let rows = 0;
for (const line of lines.slice(1)) {
  const fields = line.split(',');
  const entity = { partitionKey: fields[partitionIndex], rowKey: rowKeyIndexes.map((i) => fields[i]).join('-') };
  header.forEach((name, i) => {
    const text = fields[i];
    if (text.length === 0) {
      return; // the loader writes no property for an empty field
    }
    entity[name] = int32Columns.has(name) ? Number.parseInt(text, 10) : booleanColumns.has(name) ? text === 'true' : text;
  });
  rows++;
  let batch = open.get(entity.partitionKey);
  if (!batch) {
    batch = { actions: [], keys: new Map() };
    open.set(entity.partitionKey, batch);
  }
  const earlier = batch.keys.get(entity.rowKey);
  if (earlier !== undefined) {
    batch.actions[earlier] = ['upsert', entity, 'Replace'];
    continue;
  }
  batch.keys.set(entity.rowKey, batch.actions.length);
  batch.actions.push(['upsert', entity, 'Replace']);
  if (batch.actions.length === batchSize) {
    batches.push(batch.actions);
    open.delete(entity.partitionKey);
  }
}
for (const batch of open.values()) {
  batches.push(batch.actions);
}

const client = TableClient.fromConnectionString(options['connection-string'], options.table, { allowInsecureConnection: true });
await client.createTable();

let next = 0;
let failedRequests = 0;
let firstError = null;
const started = process.hrtime.bigint();
await Promise.all(Array.from({ length: inFlight }, async () => {
  while (next < batches.length) {
    const actions = batches[next++];
    try {
      await client.submitTransaction(actions);
    } catch (error) {
      failedRequests++;
      firstError ??= String(error?.message ?? error).split('\n')[0];
    }
  }
}));
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(JSON.stringify({ rows, requests: batches.length, seconds, failedRequests, firstError }));
