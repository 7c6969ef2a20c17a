using System.Text.Json.Serialization;

namespace Loader.Worker.Reporting;

/// <summary>
/// The load report's JSON contract, made at build time: without it the serializer reflects over the report's types and
/// emits and compiles an accessor for each property when the load ends, the larger part of a load's exit. The names,
/// casing, enums and escaping still come from <see cref="ReportWriter.JsonOptions"/>; types outside the report stay
/// with the reflection contract.
/// </summary>
[JsonSerializable(typeof(LoadReport))]
internal sealed partial class ReportJsonContext : JsonSerializerContext;
