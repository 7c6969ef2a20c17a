using Loader.Worker.Configuration;
using Loader.Worker.Csv;
using Loader.Worker.Inputs;
using Loader.Worker.Records;

namespace Loader.Worker.Pipeline;

/// <summary>The reader of each input format, set up from the load's settings.</summary>
internal static class RecordFormats
{
    /// <exception cref="InputRefusedException">The format is one this loader does not read yet.</exception>
    public static IRecordFormat For(InputFormat format, LoaderOptions settings) => format switch
    {
        InputFormat.Csv or InputFormat.Auto => new CsvFormat(settings.Csv),
        _ => throw new InputRefusedException(
            $"Loader:Input is {FormatChoice.Describe(format)}, which this loader does not read yet; set Loader:Format to Csv if it is CSV after all."),
    };
}
