// Writes the rows of a DuckDB query to a Parquet file the way DuckDB lays one out (dictionary pages where they pay,
// snappy), so the loader is tested and measured on files from a writer other than the Parquet.Net it reads with.
// Used by the Parquet compatibility tests and the formats benchmark.
//
//   node tools/duckdb-parquet.mjs <output.parquet> <row-group-rows | default> <select statement>
//
// "default" leaves the row group size to DuckDB (122,880 rows). Exits 2 on bad arguments, 1 when DuckDB refuses.
import { DuckDBInstance } from '@duckdb/node-api';

const [output, rowGroupRows, select] = process.argv.slice(2);
if (!output || !rowGroupRows || !select || (rowGroupRows !== 'default' && !/^[1-9][0-9]*$/.test(rowGroupRows))) {
  console.error('usage: node duckdb-parquet.mjs <output.parquet> <row-group-rows | default> <select statement>');
  process.exit(2);
}

const quoted = `'${output.replaceAll("'", "''")}'`;
const rowGroup = rowGroupRows === 'default' ? '' : `, ROW_GROUP_SIZE ${rowGroupRows}`;
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
try {
  await connection.run(`COPY (${select}) TO ${quoted} (FORMAT parquet, COMPRESSION snappy${rowGroup})`);
} catch (error) {
  console.error(`DuckDB could not write ${output}: ${error.message}`);
  process.exitCode = 1;
} finally {
  connection.closeSync();
  instance.closeSync();
}
