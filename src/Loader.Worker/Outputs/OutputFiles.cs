using Loader.Worker.Security;
using Loader.Worker.Storage.Blobs;

namespace Loader.Worker.Outputs;

/// <summary>
/// Turns an output setting (<c>Loader:ReportPath</c>, <c>CheckpointPath</c>, <c>RejectsPath</c>) into the file or blob it
/// names, which writes the loader's JSON through <paramref name="redaction"/>.
/// </summary>
internal sealed class OutputFiles(BlobClientFactory blobs, Redaction redaction)
{
    /// <summary>The output a setting names; null when the setting is empty.</summary>
    /// <exception cref="FormatException">A URL that is not a blob's; the message names the problem, never a signature.</exception>
    public OutputFile? For(string? setting)
    {
        if (string.IsNullOrWhiteSpace(setting))
        {
            return null;
        }

        if (!BlobClientFactory.IsUrl(setting))
        {
            return new LocalOutputFile(setting, redaction);
        }

        return BlobAddress.TryParse(setting, out var address, out var error) && !address.IsPrefix
            ? new BlobOutputFile(blobs.For(address).GetBlobClient(address.Path), address, redaction)
            : throw new FormatException(error ?? $"'{address!.Display}' names a prefix; an output is one blob.");
    }

    /// <summary>The output the setting <paramref name="key"/> names, as <see cref="For(string?)"/>, for a load that needs it.</summary>
    /// <exception cref="OutputRefusedException">The setting cannot be right; the message names the key and the problem.</exception>
    public OutputFile? For(string key, string? setting)
    {
        try
        {
            return For(setting);
        }
        catch (Exception exception) when (exception is FormatException or InvalidOperationException)
        {
            throw new OutputRefusedException(PreflightFailure.InvalidSetting, $"{key}: {exception.Message}", exception);
        }
    }

    /// <summary>How a setting is shown in logs and the report: a URL without its signature.</summary>
    public static string? Display(string? setting) =>
        string.IsNullOrWhiteSpace(setting) ? null
        : BlobClientFactory.IsUrl(setting) && BlobAddress.TryParse(setting, out var address, out _) ? address.Display
        : BlobClientFactory.IsUrl(setting) ? "(a URL that is not a blob's)"
        : setting;
}
