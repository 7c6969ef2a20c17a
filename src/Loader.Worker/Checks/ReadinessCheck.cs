using Loader.Abstractions;
using Loader.Worker.Configuration;
using Loader.Worker.Inputs;
using Loader.Worker.Outcomes;
using Loader.Worker.Outputs;
using Loader.Worker.Pipeline;
using Loader.Worker.Reporting;
using Microsoft.Extensions.Options;

namespace Loader.Worker.Checks;

/// <summary>
/// <c>--check</c>: what a load would need, checked without loading, through the parts the load itself uses. Every output
/// proven writable; the input opened and its header fitted to the settings; the target reached, its credentials accepted,
/// its table or container ready, and a probe entity written and deleted. All are checked, whatever fails first.
/// </summary>
internal sealed class ReadinessCheck(IOptions<LoaderOptions> options, IBackendAdapter backend, InputOpener inputs, OutputPreflight preflight, TimeProvider timeProvider)
{
    public async Task<Readiness> CheckAsync(CancellationToken cancellationToken)
    {
        var settings = options.Value;
        var started = timeProvider.GetTimestamp();
        var input = new LoadInput(inputs, settings, backend);
        var checks = new List<PreflightCheck>(await preflight.CheckAsync(settings, cancellationToken).ConfigureAwait(false));
        checks.Add(await CheckStepAsync("Loader:Input", OutputFiles.Display(settings.Input) ?? "", async () =>
        {
            var source = await input.FindAsync(cancellationToken).ConfigureAwait(false);
            using var reader = input.OpenReader(source);
            var plan = input.Fit(reader.Columns, source.Format);
            var reserved = reader.Columns.Count - plan.DataColumns.Length;
            var columns = source.Format switch
            {
                InputFormat.JsonLines => $"the {plan.DataColumns.Length} properties of its first object fit",
                InputFormat.Parquet => $"the {plan.DataColumns.Length} columns of its schema fit",
                _ => $"its header of {plan.DataColumns.Length} columns fits",
            };
            return $"readable; {columns} the key templates and column types"
                + (reserved > 0 ? $" (and {reserved} columns of a rejects file, which are not loaded)" : "");
        }).ConfigureAwait(false));

        var target = $"{backend.Name} {LoadReportBuilder.TargetOf(settings)}";
        checks.Add(settings.DryRun
            ? PreflightCheck.Passed("Loader:Backend", target, "not checked: a dry run connects to nothing")
            : await CheckStepAsync("Loader:Backend", target, () => new LoadTarget(backend, settings).CheckAsync(cancellationToken)).ConfigureAwait(false));
        return new Readiness(checks, timeProvider.GetElapsedTime(started));
    }

    private static async Task<PreflightCheck> CheckStepAsync(string setting, string location, Func<Task<string>> step)
    {
        try
        {
            return PreflightCheck.Passed(setting, location, await step().ConfigureAwait(false));
        }
        catch (Exception exception) when (LoadFailures.KindOf(exception) is { } kind)
        {
            var failure = kind == LoadOutcomeKind.InvalidConfiguration ? PreflightFailure.InvalidSetting : PreflightFailure.Refused;
            return PreflightCheck.Failed(setting, location, exception.Message, failure);
        }
        catch (Exception exception) when (exception is not OperationCanceledException)
        {
            // A check that fails in a way no check foresaw has still failed: it is listed with the others, never passed over.
            return PreflightCheck.Failed(setting, location, $"unexpected error: {exception.GetBaseException().Message}", PreflightFailure.Unexpected);
        }
    }
}
