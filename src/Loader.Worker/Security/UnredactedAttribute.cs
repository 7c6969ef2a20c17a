namespace Loader.Worker.Security;

/// <summary>
/// A property <see cref="RedactedJson"/> writes as it is: a name the loader reads back to find what it names (a part of
/// the input, by which a shard or a damaged part is found again). Never a credential; a name such as
/// <c>exports/customer_key=5/part-1.csv</c> looks like one to the rule, and two parts must not be written alike.
/// </summary>
[AttributeUsage(AttributeTargets.Property)]
internal sealed class UnredactedAttribute : Attribute;
