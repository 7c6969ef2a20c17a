namespace Loader.Worker.Inputs;

/// <summary>How messages name where a format's columns come from.</summary>
/// <param name="Source">What they are read from: "the input's {Source} {Does} not fit the settings".</param>
/// <param name="Does">The verb that agrees with <paramref name="Source"/>.</param>
/// <param name="Holder">What holds them: "which the {Holder} does not have".</param>
/// <param name="ListLabel">What heads a message's list of them.</param>
internal sealed record ColumnWords(string Source, string Does, string Holder, string ListLabel);
