using System.Globalization;
using System.Text;
using Loader.Worker.Outcomes;
using Loader.Worker.Outputs;

namespace Loader.Worker.Checks;

/// <summary>What <c>--check</c> found: each check, and how long they took together.</summary>
internal sealed record Readiness(IReadOnlyList<PreflightCheck> Checks, TimeSpan Elapsed)
{
    /// <summary>0 when all passed; else 10 when a check failed unexpectedly, 2 when a setting cannot be right, 3 otherwise.</summary>
    public int ExitCode
    {
        get
        {
            var failed = Checks.Where(check => !check.Ok).ToList();
            return failed.Count == 0 ? ExitCodes.Success
                : failed.Any(check => check.Failure == PreflightFailure.Unexpected) ? ExitCodes.InternalError
                : failed.Any(check => check.Failure == PreflightFailure.InvalidSetting) ? ExitCodes.InvalidConfiguration
                : ExitCodes.Unavailable;
        }
    }

    /// <summary>One line per check, then whether the load is ready.</summary>
    public string Format()
    {
        var failed = Checks.Count(check => !check.Ok);
        var text = new StringBuilder();
        foreach (var check in Checks)
        {
            text.AppendLine(check.ToString());
        }

        text.Append(failed == 0
            ? string.Create(CultureInfo.InvariantCulture, $"Ready to load: {Checks.Count} checks passed in {Elapsed.TotalSeconds:0.0} s.")
            : string.Create(CultureInfo.InvariantCulture, $"Not ready: {failed} of {Checks.Count} checks failed."));
        return text.ToString();
    }
}
