using System.Globalization;
using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Inputs;
using Loader.Worker.Inputs.Compression;
using Loader.Worker.Mapping;
using Loader.Worker.Records;

namespace Loader.Worker.Pipeline;

/// <summary>
/// The input of one load: found where <c>Loader:Input</c> says (narrowed to a shard's share of it), opened by the reader of
/// its format, and its columns (a CSV header, the first JSON object's paths) fitted to the key templates and column types.
/// Each failure is said as what happened.
/// </summary>
/// <param name="opener">Finds and opens what <c>Loader:Input</c> names.</param>
/// <param name="settings">The load's settings.</param>
/// <param name="backend">Where the entities go, for its rules on keys and properties.</param>
/// <param name="narrow">Narrows the input to a shard's share; null for a load of the whole input.</param>
internal sealed class LoadInput(InputOpener opener, LoaderOptions settings, IBackendAdapter backend, Func<InputSource, InputSource>? narrow = null)
{
    /// <exception cref="InputNotFoundException">Nothing is where the setting points.</exception>
    /// <exception cref="InputUnavailableException">The input could not be opened or read.</exception>
    /// <exception cref="InputRefusedException">It is nothing the loader reads, or it can be read only once and the load keeps a checkpoint.</exception>
    /// <exception cref="InputMismatchException">Its parts' headers differ, or it is not what a shard's plan cut.</exception>
    /// <exception cref="DamagedInputException">A compressed part is damaged where its header should be.</exception>
    public async Task<InputSource> FindAsync(CancellationToken cancellationToken)
    {
        var source = await opener.OpenAsync(settings.Input, settings.Csv.Compression, cancellationToken, settings.Format).ConfigureAwait(false);
        if (source.Parts is [OnceReadPart once] && !settings.DryRun && !string.IsNullOrWhiteSpace(settings.CheckpointPath))
        {
            // Resuming reads the input again from its start, and a checkpoint is tied to the input by its content.
            once.Stream.Dispose();
            throw new InputRefusedException(
                $"Loader:Input '{settings.Input}' is {once.Kind}, which can be read only once, and Loader:CheckpointPath is set: a load that keeps a checkpoint "
                + "resumes by reading its input again from the start. Write the input to a file and load that, or load it without a checkpoint.");
        }

        return narrow?.Invoke(source) ?? source;
    }

    /// <summary>A reader of <paramref name="source"/> in its format, its columns read (a CSV header, the first JSON object).</summary>
    /// <exception cref="InputHeaderException">The columns cannot be used.</exception>
    /// <exception cref="InputRefusedException">The format is one the loader does not read.</exception>
    /// <exception cref="InputFormatException">A part is not what it is read as.</exception>
    /// <exception cref="DamagedInputException">The input is damaged before its first record.</exception>
    /// <exception cref="InputUnavailableException">Its storage failed before its first record.</exception>
    public IRecordReader OpenReader(InputSource source)
    {
        var format = RecordFormats.For(source.Format, settings);
        try
        {
            return format.Open(source, settings.Blob.ReadBlockSize);
        }
        catch (InputHeaderException exception)
        {
            throw new InputHeaderException($"Input {FormatChoice.ColumnWordsOf(source.Format).Source}: {exception.Message}", exception);
        }
        catch (DamagedInputException exception)
        {
            throw new DamagedInputException(exception.Part, exception.Offset, $"Input: {exception.Message}", exception);
        }
        catch (IOException exception) when (exception is not InputFormatException)
        {
            throw new InputUnavailableException($"Input: {exception.Message}", exception);
        }
    }

    /// <summary>
    /// Makes a mapper per mapping thread, each turning records into entities by <paramref name="plan"/>, values read in
    /// <c>Loader:Csv:Culture</c> (CSV; other formats write numbers as JSON does, invariantly), dates without a zone in
    /// <c>Loader:Csv:TimeZone</c>; <paramref name="reader"/> names the encoding in rejects.
    /// </summary>
    public Func<EntityMapper> Mappers(MappingPlan plan, IRecordReader reader, InputFormat format = InputFormat.Csv)
    {
        var textEncoding = reader.TextEncoding;
        var culture = format != InputFormat.Csv || string.IsNullOrWhiteSpace(settings.Csv.Culture) ? CultureInfo.InvariantCulture : CultureInfo.GetCultureInfo(settings.Csv.Culture);
        var converter = new ColumnConverter(culture, settings.Csv.AllowGroupSeparators, TimeZoneInfo.FindSystemTimeZoneById(settings.Csv.TimeZone));
        return () => new EntityMapper(plan, backend, converter, textEncoding);
    }

    /// <summary>How each record of an input with the columns <paramref name="header"/> becomes an entity.</summary>
    /// <param name="header">The input's columns.</param>
    /// <param name="format">The input's format, which says what its columns were read from.</param>
    /// <exception cref="InputHeaderException">The columns do not fit the settings; the message names each column or setting at fault.</exception>
    public MappingPlan Fit(IReadOnlyList<string> header, InputFormat format = InputFormat.Csv)
    {
        try
        {
            // A hierarchical Cosmos DB key has a template per path, separated by commas (checked at start to match).
            var paths = settings.Backend == BackendKind.Cosmos ? settings.Cosmos.KeyPaths : [];
            var levels = paths.Count > 1 ? KeyTemplate.SplitLevels(settings.PartitionKey) : [settings.PartitionKey];
            return MappingPlan.Create(header, [.. levels.Select(KeyTemplate.Parse)], [.. paths.Select(path => path.Text)], KeyTemplate.Parse(settings.RowKey), settings.Columns, backend, keysOnly: settings.WriteMode == WriteMode.Delete, format, settings.SkippedColumns());
        }
        catch (InputHeaderException exception)
        {
            var words = FormatChoice.ColumnWordsOf(format);
            throw new InputHeaderException($"The input's {words.Source} {words.Does} not fit the settings:{Environment.NewLine}{exception.Message}", exception);
        }
    }
}
