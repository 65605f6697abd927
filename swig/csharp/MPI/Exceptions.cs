using System;

namespace MPI
{
    /// <summary>
    /// An MPI call failed with an error class MPI.NET did not map to an argument error: the
    /// message is MPI's text. (MPI.NET threw a plain System.Exception here; this derives from it.)
    /// <c>Data["MPI Error Code"]</c> and <c>Data["MPI Error Class"]</c> hold MPI's numbers, as in MPI.NET.
    /// </summary>
    public class MPIException : Exception
    {
        /// <summary>An exception with MPI's message.</summary>
        public MPIException(string message) : base(message) { }
        /// <summary>An exception with MPI's message and the exception that carried it.</summary>
        public MPIException(string message, Exception inner) : base(message, inner) { }

        /// <summary>MPI's error class (MPI_ERR_TRUNCATE ...), or -1 when MPI did not report one.</summary>
        public int ErrorClass => Data["MPI Error Class"] is int c ? c : -1;
        /// <summary>MPI's error code, or -1 when MPI did not report one.</summary>
        public int ErrorCode => Data["MPI Error Code"] is int c ? c : -1;
    }

    /// <summary>A received message was longer than the buffer it was received into (MPI_ERR_TRUNCATE).</summary>
    public class MessageTruncatedException : MPIException
    {
        /// <summary>A truncation with MPI's message.</summary>
        public MessageTruncatedException(string message) : base(message) { }
        /// <summary>A truncation with MPI's message and the exception that carried it.</summary>
        public MessageTruncatedException(string message, Exception inner) : base(message, inner) { }
    }

    /// <summary>Thrown by <see cref="Request"/> operations on a request that no longer exists.</summary>
    public class RequestDisposedException : ObjectDisposedException
    {
        internal RequestDisposedException() : base("MPI.Request", "the request has been disposed") { }
    }

    /// <summary>
    /// How MPI.NET's errors arrive: oompi's <see cref="Oompi.MpiException"/> becomes the exception
    /// MPI.NET's Environment.TranslateErrorIntoException chose for that error class
    /// (ArgumentException naming the argument, <see cref="MessageTruncatedException"/>, or
    /// <see cref="MPIException"/>), with oompi's exception as InnerException.
    /// </summary>
    internal static class Errors
    {
        internal static Exception Translate(Oompi.MpiException e)
        {
            int c = e.ErrorClass;
            Exception result;
            string msg = e.Message;
            if (c == Oompi.Mpi.ErrTruncate) result = new MessageTruncatedException(msg, e);
            else if (c == Oompi.Mpi.ErrBuffer) result = new ArgumentException(msg, "buffer", e);
            else if (c == Oompi.Mpi.ErrCount) result = new ArgumentException(msg, "count", e);
            else if (c == Oompi.Mpi.ErrType) result = new ArgumentException(msg, "datatype", e);
            else if (c == Oompi.Mpi.ErrTag) result = new ArgumentException(msg, "tag", e);
            else if (c == Oompi.Mpi.ErrComm) result = new ArgumentException(msg, "comm", e);
            else if (c == Oompi.Mpi.ErrRank) result = new ArgumentException(msg, "rank", e);
            else if (c == Oompi.Mpi.ErrRequest) result = new ArgumentException(msg, "request", e);
            else if (c == Oompi.Mpi.ErrRoot) result = new ArgumentException(msg, "root", e);
            else if (c == Oompi.Mpi.ErrGroup) result = new ArgumentException(msg, "group", e);
            else if (c == Oompi.Mpi.ErrOp) result = new ArgumentException(msg, "op", e);
            else if (c == Oompi.Mpi.ErrTopology) result = new ArgumentException(msg, "comm", e);
            else if (c == Oompi.Mpi.ErrDims) result = new ArgumentException(msg, "dims", e);
            else if (c == Oompi.Mpi.ErrArg) result = new ArgumentException(msg, e);
            else result = new MPIException(msg, e);
            result.Data["MPI Error Code"] = e.ErrorCode;
            result.Data["MPI Error Class"] = c;
            return result;
        }
    }
}
