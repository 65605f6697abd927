using System;

namespace Oompi
{
    /// <summary>
    /// An MPI call failed. <see cref="ErrorClass"/> is the MPI error class (compare with
    /// <c>Mpi.ErrTruncate</c> and the other <c>Mpi.Err*</c> constants); the message is MPI's text.
    /// </summary>
    public class MpiException : Exception
    {
        public MpiException(string message, int errorClass, int errorCode, string routine)
            : base(message)
        {
            ErrorClass = errorClass;
            ErrorCode = errorCode;
            Routine = routine;
        }

        /// <summary>The MPI error class (Mpi.ErrTruncate, Mpi.ErrRank, ...).</summary>
        public int ErrorClass { get; }
        /// <summary>The error code the failing call returned.</summary>
        public int ErrorCode { get; }
        /// <summary>The MPI routine that failed, e.g. "MPI_Recv".</summary>
        public string Routine { get; }
    }
}
