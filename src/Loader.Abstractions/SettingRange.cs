using System.ComponentModel.DataAnnotations;
using System.Globalization;
using System.Reflection;

namespace Loader.Abstractions;

/// <summary>
/// The range a number or duration setting accepts, declared by the <see cref="RangeAttribute"/> on its property (the
/// attribute Polly's own options carry their ranges in): its limits in the setting's type, the words for them, and the
/// check. One declaration for the validators, <c>--help</c> and the configuration page.
/// </summary>
/// <param name="Minimum">The lowest value, in the setting's type.</param>
/// <param name="Maximum">The highest value, in the setting's type.</param>
/// <param name="MinimumIsExclusive">The lowest value itself is refused (a positive rate: more than 0).</param>
public sealed record SettingRange(IComparable Minimum, IComparable Maximum, bool MinimumIsExclusive)
{
    /// <summary>The range declared on <paramref name="property"/>; null when it declares none.</summary>
    public static SettingRange? Of(PropertyInfo property)
    {
        if (property.GetCustomAttribute<RangeAttribute>() is not { } range)
        {
            return null;
        }

        var type = Nullable.GetUnderlyingType(property.PropertyType) ?? property.PropertyType;
        return new SettingRange(Limit(range.Minimum, type), Limit(range.Maximum, type), range.MinimumIsExclusive);
    }

    /// <summary>Whether <paramref name="value"/> is in the range; an unset value (null) is.</summary>
    public bool Contains(object? value)
    {
        if (value is null)
        {
            return true;
        }

        // NaN compares below every number, so it is refused with the reason the minimum gives.
        var fromMinimum = ((IComparable)value).CompareTo(Minimum);
        return (MinimumIsExclusive ? fromMinimum > 0 : fromMinimum >= 0) && ((IComparable)value).CompareTo(Maximum) <= 0;
    }

    /// <summary>The range as a reader looks it up: <c>1 to 100</c>, <c>400 or more</c>, <c>more than 0</c>.</summary>
    public string Text => (MinimumIsExclusive, IsTypeMaximum(Maximum)) switch
    {
        (true, true) => $"more than {Format(Minimum)}",
        (true, false) => $"more than {Format(Minimum)}, up to {Format(Maximum)}",
        (false, true) => $"{Format(Minimum)} or more",
        (false, false) => $"{Format(Minimum)} to {Format(Maximum)}",
    };

    /// <summary>What a value out of range must be, as a message says it: <c>between 1 and 100</c>, <c>at least 400</c>.</summary>
    public string Requirement => (MinimumIsExclusive, IsTypeMaximum(Maximum)) switch
    {
        (true, true) => $"more than {Format(Minimum)}",
        (true, false) => $"more than {Format(Minimum)} and at most {Format(Maximum)}",
        (false, true) => $"at least {Format(Minimum)}",
        (false, false) => $"between {Format(Minimum)} and {Format(Maximum)}",
    };

    /// <summary>A value as settings are written: invariant numbers, durations as <c>d.hh:mm:ss.fff</c> without trailing zeros.</summary>
    public static string Format(object? value) => value switch
    {
        null => "(unset)",
        TimeSpan time => Duration(time),
        double number => number.ToString("R", CultureInfo.InvariantCulture),
        IFormattable formattable => formattable.ToString(null, CultureInfo.InvariantCulture),
        _ => value.ToString() ?? "",
    };

    private static string Duration(TimeSpan time)
    {
        var text = time.ToString("c", CultureInfo.InvariantCulture);
        return text.Contains('.', StringComparison.Ordinal) && text.LastIndexOf('.') > text.LastIndexOf(':') ? text.TrimEnd('0').TrimEnd('.') : text;
    }

    /// <summary>A limit as the attribute holds it (a number, or text for another type), in the setting's own type.</summary>
    private static IComparable Limit(object limit, Type type) =>
        type == typeof(TimeSpan)
            ? limit as TimeSpan? ?? TimeSpan.Parse((string)limit, CultureInfo.InvariantCulture)
            : (IComparable)Convert.ChangeType(limit, type, CultureInfo.InvariantCulture);

    /// <summary>Whether a limit is its type's largest value, i.e. no limit of the setting's own.</summary>
    private static bool IsTypeMaximum(IComparable limit) => limit switch
    {
        int value => value == int.MaxValue,
        long value => value == long.MaxValue,
        double value => value == double.MaxValue,
        decimal value => value == decimal.MaxValue,
        TimeSpan value => value == TimeSpan.MaxValue,
        _ => false,
    };
}
