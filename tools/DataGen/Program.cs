using System.Globalization;
using Loader.DataGen;

// Usage: see GeneratorOptions.Usage
try
{
    var options = GeneratorOptions.Parse(args);
    var started = System.Diagnostics.Stopwatch.StartNew();
    using var output = options.Output is null ? Console.OpenStandardOutput() : File.Create(options.Output);
    var data = new FlightCsvGenerator(options).Write(output);
    if (options.Output is not null)
    {
        Console.Error.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"wrote {data.Rows:N0} rows ({options.Shape}), {options.Columns} columns, {data.Partitions:N0} partitions of {data.SmallestPartition:N0} to {data.LargestPartition:N0} rows, {data.DuplicateRows:N0} rows repeating earlier keys, to {options.Output} in {started.Elapsed.TotalSeconds:N1} s"));
    }

    return 0;
}
catch (ArgumentException exception)
{
    Console.Error.WriteLine(exception.Message);
    Console.Error.WriteLine(GeneratorOptions.Usage);
    return 2;
}
