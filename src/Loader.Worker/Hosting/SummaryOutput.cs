namespace Loader.Worker.Hosting;

/// <summary>Where the human summary goes: standard output, or a writer a test captures.</summary>
public sealed class SummaryOutput(TextWriter output)
{
    public SummaryOutput()
        : this(Console.Out)
    {
    }

    public TextWriter Out { get; } = output;
}
