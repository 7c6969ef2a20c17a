using System.Globalization;

namespace Loader.ThrottlingSimulator;

/// <summary>
/// <c>--name value</c> pairs read into an options record, one option at a time, with the messages a user of the
/// test proxies (the throttling simulator, the Cosmos DB stand-in) sees when one is wrong.
/// </summary>
public static class OptionArguments
{
    /// <summary>Applies each pair to <paramref name="options"/> in order; <paramref name="apply"/> throws <see cref="Unknown"/> for a name it does not know.</summary>
    public static T Parse<T>(IReadOnlyList<string> args, T options, Func<T, string, string, T> apply)
    {
        ArgumentNullException.ThrowIfNull(args);
        ArgumentNullException.ThrowIfNull(apply);
        for (var i = 0; i < args.Count; i++)
        {
            var name = args[i];
            if (i + 1 >= args.Count)
            {
                throw new ArgumentException($"{name} needs a value.");
            }

            options = apply(options, name, args[++i]);
        }

        return options;
    }

    public static int WholeNumber(string name, string value) =>
        int.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out var number) ? number : throw Invalid(name, value);

    public static double Number(string name, string value) =>
        double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var number) ? number : throw Invalid(name, value);

    public static bool Boolean(string name, string value) =>
        bool.TryParse(value, out var flag) ? flag : throw Invalid(name, value);

    public static Uri AbsoluteUri(string name, string value) =>
        Uri.TryCreate(value, UriKind.Absolute, out var uri) ? uri : throw Invalid(name, value);

    public static ArgumentException Invalid(string name, string value) => new($"{name} '{value}' is not valid.");

    public static ArgumentException Unknown(string name) => new($"unknown option {name}.");
}
