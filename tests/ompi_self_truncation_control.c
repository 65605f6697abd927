/* A receive posted before its message, sent by the same process, that is longer than the
 * receive: MPI must complete it with MPI_ERR_TRUNCATE (MPI 4.0, section 3.2.4). Open MPI 4.1
 * (pml ob1, btl self) completes it with MPI_SUCCESS and a count of what fitted: the truncation
 * is silent (nothing is written past the buffer). Sent first, the same message is reported.
 * Between two processes both orders are reported. oompi cannot see it either (the status
 * holds the count the receive asked for): docs/openmpi-truncation-bug.md, docs/cpp-core.md.
 *
 * One rank: MPI_Irecv of 2 ints from itself, then MPI_Isend of 5 ints to itself, MPI_Wait;
 * also MPI_Recv_init + MPI_Start posted first.
 *   ompi_self_truncation_control silent   exit 0 only if a posted-first receive reported no error
 *   ompi_self_truncation_control safe     exit 0 only if every receive reported MPI_ERR_TRUNCATE
 * In both cases a byte written past the receive buffer is a failure. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  const char* expect = argc > 1 ? argv[1] : "";
  int rank = 0, silent = 0, overflow = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (int persistent = 0; persistent < 2; ++persistent) {
    int src[5] = {1, 2, 3, 4, 5}, dst[2 + 4];
    for (int i = 0; i < 6; ++i) dst[i] = -1;
    MPI_Request r, s;
    if (persistent) {
      MPI_Recv_init(dst, 2, MPI_INT, rank, 7, MPI_COMM_WORLD, &r);
      MPI_Start(&r);
    } else {
      MPI_Irecv(dst, 2, MPI_INT, rank, 7, MPI_COMM_WORLD, &r);
    }
    MPI_Isend(src, 5, MPI_INT, rank, 7, MPI_COMM_WORLD, &s);
    MPI_Status st;
    int rc = MPI_Wait(&r, &st), cls = MPI_SUCCESS, n = -1;
    MPI_Error_class(rc, &cls);
    MPI_Get_count(&st, MPI_INT, &n);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    if (persistent) MPI_Request_free(&r);
    for (int i = 2; i < 6; ++i) overflow += dst[i] != -1;
    silent += cls != MPI_ERR_TRUNCATE;
    printf("%s posted first, 5 ints into 2: %s, count %d\n", persistent ? "MPI_Recv_init" : "MPI_Irecv",
           cls == MPI_ERR_TRUNCATE ? "MPI_ERR_TRUNCATE" : "no error", n);
  }
  int code = 2;
  if (strcmp(expect, "silent") == 0) code = silent > 0 && overflow == 0 ? 0 : 1;
  if (strcmp(expect, "safe") == 0) code = silent == 0 && overflow == 0 ? 0 : 1;
  MPI_Finalize();
  return code;
}
