using System.Globalization;
using Loader.Abstractions;
using Loader.Worker.Backends;
using Loader.Worker.Configuration;

namespace Loader.Worker.Pipeline;

/// <summary>
/// The table or container a load writes to, made ready before the first row is sent, within <c>Loader:ConnectTimeout</c>.
/// A dry run connects to nothing.
/// </summary>
internal sealed class LoadTarget(IBackendAdapter backend, LoaderOptions settings)
{
    /// <exception cref="TargetUnavailableException">No answer in time, credentials refused, or the target could not be made ready.</exception>
    /// <exception cref="TargetMismatchException">The target is there but does not fit the settings.</exception>
    public async Task PrepareAsync(CancellationToken abort)
    {
        if (settings.DryRun)
        {
            return;
        }

        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(abort);
        timeout.CancelAfter(settings.ConnectTimeout);
        try
        {
            await backend.PrepareAsync(timeout.Token).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (timeout.IsCancellationRequested && !abort.IsCancellationRequested)
        {
            throw new TargetUnavailableException(
                string.Create(CultureInfo.InvariantCulture, $"{backend.Name}: no answer from the service within {settings.ConnectTimeout.TotalSeconds:0} s (Loader:ConnectTimeout); check the endpoint and the network."));
        }
        catch (Exception exception) when (exception is not (OperationCanceledException or TargetMismatchException))
        {
            throw new TargetUnavailableException($"{backend.Name}: cannot prepare the target: {BackendErrors.Describe(exception)}", exception);
        }
    }

    /// <summary><c>--check</c>: the target made ready and, where the backend can tell, a probe entity written and deleted; says what was proven.</summary>
    /// <exception cref="TargetUnavailableException">The target is not ready, or the probe could not be written.</exception>
    public async Task<string> CheckAsync(CancellationToken cancellationToken)
    {
        await PrepareAsync(cancellationToken).ConfigureAwait(false);
        if (backend is not IWriteProbe probe)
        {
            return "reachable, credentials accepted, target ready; write permission not checked for this backend";
        }

        try
        {
            return $"reachable, credentials accepted, target ready; may write: {await probe.ProbeWriteAsync(cancellationToken).ConfigureAwait(false)}";
        }
        catch (Exception exception) when (exception is not OperationCanceledException)
        {
            throw new TargetUnavailableException($"reachable, but a probe entity could not be written: {BackendErrors.Describe(exception)}", exception);
        }
    }
}
