namespace Loader.Worker.Csv;

/// <summary>The input's header cannot be used; the message names the column and the reason.</summary>
internal sealed class CsvHeaderException(string message, Exception? inner = null) : Exception(message, inner);
