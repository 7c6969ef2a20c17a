namespace Loader.Worker.Parquet;

/// <summary>A read of a leaf's values, generic in the CLR type the Parquet reader hands them out as.</summary>
internal interface IParquetValueRead<TResult>
{
    ValueTask<TResult> ReadAsync<T>()
        where T : struct;
}
