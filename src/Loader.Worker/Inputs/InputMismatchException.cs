namespace Loader.Worker.Inputs;

/// <summary>
/// The input is not what the load needs it to be: the files read as one CSV start with different headers, or the input
/// changed since the load was planned. The message says what differs and what to do.
/// </summary>
internal sealed class InputMismatchException(string message) : Exception(message);
