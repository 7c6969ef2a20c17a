namespace Loader.Abstractions;

/// <summary>
/// What an <see cref="EntityProperty"/> refers to when its value is not a string of a registered name: its name and
/// type, and the value itself when it is not held inline. One base for every such reference, so a property's type and
/// name are one field away: a row's types are asked for several times on its way (its checks, its size, its body).
/// </summary>
/// <param name="Name">The property's name.</param>
/// <param name="Type">The property's type.</param>
internal abstract record PropertyTag(PropertyName Name, ColumnType Type);
