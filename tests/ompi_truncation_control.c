/* A message larger than its receive buffer must fail with MPI_ERR_TRUNCATE and write nothing
 * after the buffer (MPI 4.0, section 3.2.4: "the receive buffer"; the overflow is an error).
 * Open MPI 4.1 and 5.0 (pml ob1) write the whole message past a 1-byte receive buffer when it
 * travels by an RDMA protocol (above the eager limit: vader's CMA/XPMEM single copy, tcp's
 * put/get emulation). docs/openmpi-truncation-bug.md.
 *
 * Two ranks. Rank 0 sends messages of 4 KiB, 64 KiB and 4 MiB; rank 1 receives each into a
 * 1-byte buffer followed by canary bytes, blocking (MPI_Recv), nonblocking (MPI_Irecv +
 * MPI_Wait), persistent (MPI_Recv_init + MPI_Start + MPI_Wait) and inside MPI_Sendrecv, and
 * reports whether the error class was MPI_ERR_TRUNCATE and whether any canary byte changed.
 *
 *   ompi_truncation_control            prints the table; exit 0
 *   ompi_truncation_control overflow   exit 0 only if some receive wrote past its buffer
 *   ompi_truncation_control safe       exit 0 only if every receive failed with
 *                                      MPI_ERR_TRUNCATE and no canary byte changed
 * Plain C and MPI only: it runs without whatever oompi does to MPI (tests/CMakeLists.txt
 * registers it with and without OMPI_MCA_pml_ob1_max_rdma_per_request=0). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CANARY = 0x5a, KINDS = 4 };
static const char* const kind_names[KINDS] = {"MPI_Recv", "MPI_Irecv", "MPI_Recv_init",
                                              "MPI_Sendrecv"};

/* Receives one message of `bytes` bytes from rank 0 into the first byte of `buf`. */
static int receive(int kind, char* buf, int tag) {
  MPI_Request r = MPI_REQUEST_NULL;
  char out = 0;
  int rc;
  switch (kind) {
    case 0: return MPI_Recv(buf, 1, MPI_BYTE, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    case 1:
      rc = MPI_Irecv(buf, 1, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &r);
      return rc != MPI_SUCCESS ? rc : MPI_Wait(&r, MPI_STATUS_IGNORE);
    case 2:
      rc = MPI_Recv_init(buf, 1, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &r);
      if (rc == MPI_SUCCESS) rc = MPI_Start(&r);
      if (rc == MPI_SUCCESS) rc = MPI_Wait(&r, MPI_STATUS_IGNORE);
      if (r != MPI_REQUEST_NULL) MPI_Request_free(&r);
      return rc;
    default:  /* sends one byte to rank 0 too */
      return MPI_Sendrecv(&out, 1, MPI_BYTE, 0, tag, buf, 1, MPI_BYTE, 0, tag, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE);
  }
}

int main(int argc, char** argv) {
  static const int sizes[] = {4 << 10, 64 << 10, 4 << 20};
  const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
  const char* expect = argc > 1 ? argv[1] : "";
  int rank = 0, size = 0, overflows = 0, wrong_class = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) fprintf(stderr, "run with 2 ranks\n");
    MPI_Finalize();
    return 77;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  for (int s = 0; s < nsizes; ++s) {
    const int bytes = sizes[s];
    /* The receive buffer is buf[0]; buf[1 .. bytes + 64] is canary (inside this allocation, so
     * an overflow corrupts nothing else). */
    char* buf = malloc((size_t)bytes + 65);
    for (int kind = 0; kind < KINDS; ++kind) {
      const int tag = 10 * s + kind;
      if (rank == 0) {
        char in = 0;
        memset(buf, 'm', (size_t)bytes);
        MPI_Send(buf, bytes, MPI_BYTE, 1, tag, MPI_COMM_WORLD);
        if (kind == 3) MPI_Recv(&in, 1, MPI_BYTE, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        memset(buf, CANARY, (size_t)bytes + 65);
        const int rc = receive(kind, buf, tag);
        int cls = MPI_SUCCESS, changed = 0;
        MPI_Error_class(rc, &cls);
        for (int i = 1; i < bytes + 65; ++i) changed += buf[i] != (char)CANARY;
        overflows += changed != 0;
        wrong_class += cls != MPI_ERR_TRUNCATE;
        printf("%8d B into 1 B, %-13s: %s, %d bytes after the buffer written\n", bytes,
               kind_names[kind], cls == MPI_ERR_TRUNCATE ? "MPI_ERR_TRUNCATE" : "NOT MPI_ERR_TRUNCATE",
               changed);
      }
      MPI_Barrier(MPI_COMM_WORLD);
    }
    free(buf);
  }
  int verdict[2] = {overflows, wrong_class};
  MPI_Bcast(verdict, 2, MPI_INT, 1, MPI_COMM_WORLD);
  int code = 0;
  if (strcmp(expect, "overflow") == 0) code = verdict[0] > 0 ? 0 : 1;
  if (strcmp(expect, "safe") == 0) code = verdict[0] == 0 && verdict[1] == 0 ? 0 : 1;
  if (rank == 1) fflush(stdout);
  MPI_Finalize();
  return code;
}
