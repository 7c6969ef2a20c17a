namespace Loader.Worker.Parquet;

/// <summary>A Parquet file whose schema the loader cannot write: a column of a type no store type holds. A settings-time failure (exit 2).</summary>
internal sealed class ParquetSchemaException(string message) : Exception(message);
