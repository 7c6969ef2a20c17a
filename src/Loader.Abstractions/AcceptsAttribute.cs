namespace Loader.Abstractions;

/// <summary>
/// What a setting accepts, in words: for a text setting (a path, a URL, a template, a name) its bound, and whether it is
/// required; beside a <see cref="System.ComponentModel.DataAnnotations.RangeAttribute"/>, what the range does not say
/// (another setting it must not be below). Shown by <c>--help</c> and the configuration page; its section's validator
/// checks it.
/// </summary>
[AttributeUsage(AttributeTargets.Property)]
public sealed class AcceptsAttribute(string what) : Attribute
{
    public string What { get; } = what;
}
