namespace Loader.Benchmarks;

/// <summary>
/// What every benchmark command opens and closes with: a heading, the machine, the command line and the data set,
/// and at the end the load average and the results file.
/// </summary>
internal sealed class BenchRun
{
    private readonly string _command;
    private readonly TextWriter _output;

    private BenchRun(string command, TextWriter output, DateTimeOffset startedAt, MachineFacts machine, string commandLine, Dataset data)
    {
        _command = command;
        _output = output;
        StartedAt = startedAt;
        Folder = BenchPaths.NewRunFolder(command, startedAt);
        Machine = machine;
        CommandLine = commandLine;
        Data = data;
    }

    public DateTimeOffset StartedAt { get; }

    /// <summary>Where this run keeps the loader's reports and logs.</summary>
    public string Folder { get; }

    public MachineFacts Machine { get; }

    /// <summary>The benchmark's own command line, as printed.</summary>
    public string CommandLine { get; }

    /// <summary>The generated input and what it holds.</summary>
    public Dataset Data { get; }

    /// <summary>The generated input.</summary>
    public string Csv => Data.Path;

    /// <summary>The DataGen command that writes the same input.</summary>
    public string DataCommandLine => Data.CommandLine;

    /// <summary>Prints the heading, the machine and the first lines of "## Commands" (the benchmark and its data); the caller adds its own.</summary>
    public static async Task<BenchRun> StartAsync(string command, string heading, BenchSettings settings, TextWriter output, CancellationToken cancellationToken)
    {
        var (startedAt, machine, commandLine) = await OpenAsync(heading, output, cancellationToken);
        return new BenchRun(command, output, startedAt, machine, commandLine, Dataset.Ensure(settings, output));
    }

    /// <summary>
    /// Prints the heading, the machine and the first line of "## Commands" (the benchmark's own), for a benchmark whose
    /// data is no generated CSV; returns when it started, the machine and its command line.
    /// </summary>
    public static async Task<(DateTimeOffset StartedAt, MachineFacts Machine, string CommandLine)> OpenAsync(string heading, TextWriter output, CancellationToken cancellationToken)
    {
        var startedAt = DateTimeOffset.UtcNow;
        output.WriteLine(heading);
        output.WriteLine();
        var machine = await MachineFacts.GatherAsync(cancellationToken);
        machine.Print(output);
        output.WriteLine();
        output.WriteLine("## Commands");
        var commandLine = ShellText.CurrentCommandLine();
        output.WriteLine($"- benchmark: `{commandLine}`");
        return (startedAt, machine, commandLine);
    }

    /// <summary>Writes the results, made from the load average at the end, to bench/results and says where.</summary>
    public void Finish<T>(Func<string, T> results)
    {
        var loadAverage = MachineFacts.LoadAverage();
        var path = ResultsFile.Write(_command, StartedAt, results(loadAverage));
        _output.WriteLine($"Load average at the end: {loadAverage}. Results: {path}");
    }
}
