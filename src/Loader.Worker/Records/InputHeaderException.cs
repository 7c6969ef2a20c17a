namespace Loader.Worker.Records;

/// <summary>The input's columns cannot be used (a CSV header, the first object of JSON Lines); the message names the column and the reason.</summary>
internal sealed class InputHeaderException(string message, Exception? inner = null) : Exception(message, inner);
