namespace Loader.Worker.Outputs;

/// <summary>
/// An output the load needs cannot be used: its setting cannot be right, or the place it names cannot be reached or
/// refuses the credential (<see cref="Failure"/> says which). Raised before anything is loaded.
/// </summary>
internal sealed class OutputRefusedException(PreflightFailure failure, string message, Exception? inner = null) : Exception(message, inner)
{
    public PreflightFailure Failure { get; } = failure;
}
