namespace Loader.Worker.Hosting;

/// <summary>What the process was asked to do: load (the default), estimate a load, or print help or the version.</summary>
internal enum LoaderCommandKind
{
    Load,
    Estimate,
    Help,
    Version,
}

/// <summary>
/// The switches that choose what the process does rather than set a setting (<c>--help</c>, <c>--version</c>,
/// <c>--estimate</c>), taken out of the arguments before the rest become configuration. Named so that they do not
/// collide with the verbs of a sharded load (<c>plan</c>, <c>work</c>, <c>status</c>; <see cref="Configuration.LoaderCommand"/>).
/// </summary>
internal sealed record LoaderSwitches(LoaderCommandKind Kind, string[] Arguments)
{
    public const string EstimateSwitch = "--estimate";

    private static readonly string[] s_help = ["--help", "-h", "-?"];

    public static LoaderSwitches Parse(string[] args)
    {
        bool Has(string name) => args.Any(arg => arg.Equals(name, StringComparison.OrdinalIgnoreCase));
        if (s_help.Any(Has))
        {
            return new(LoaderCommandKind.Help, []);
        }

        if (Has("--version"))
        {
            return new(LoaderCommandKind.Version, []);
        }

        return Has(EstimateSwitch)
            ? new(LoaderCommandKind.Estimate, [.. args.Where(arg => !arg.Equals(EstimateSwitch, StringComparison.OrdinalIgnoreCase))])
            : new(LoaderCommandKind.Load, args);
    }
}
