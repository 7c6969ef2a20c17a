namespace Loader.Worker.Configuration;

/// <summary>How the input is parsed (<c>Loader:Csv</c>).</summary>
public sealed class CsvOptions
{
    /// <summary>Field delimiter; <c>\t</c> for tab.</summary>
    public string Delimiter { get; set; } = ",";

    /// <summary>Culture for numbers and dates in typed columns; empty for the invariant culture.</summary>
    public string Culture { get; set; } = "";

    /// <summary>Threads that map records to entities; 0 picks one per core (two to four). Order is kept whatever the number.</summary>
    public int MapThreads { get; set; }
}
