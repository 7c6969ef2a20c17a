using System.Globalization;
using Loader.DataGen;

// Usage: DataGen --rows N [--columns C] [--partitions P] [--skew S] [--seed X] [--sorted] [--output path]
try
{
    var options = GeneratorOptions.Parse(args);
    var started = System.Diagnostics.Stopwatch.StartNew();
    using var output = options.Output is null ? Console.OpenStandardOutput() : File.Create(options.Output);
    var rows = new FlightCsvGenerator(options).Write(output);
    if (options.Output is not null)
    {
        Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"wrote {rows:N0} rows, {options.Columns} columns, {options.Partitions:N0} partitions (skew {options.Skew}) to {options.Output} in {started.Elapsed.TotalSeconds:N1} s"));
    }

    return 0;
}
catch (ArgumentException exception)
{
    Console.Error.WriteLine(exception.Message);
    Console.Error.WriteLine(GeneratorOptions.Usage);
    return 2;
}
