/* The raw C baseline of the Python benches, in the same process as oompi and mpi4py: a block of
 * ping-pong round trips written as a C programmer writes them (MPI_Send / MPI_Recv with
 * MPI_STATUS_IGNORE on MPI_COMM_WORLD), timed in C. Python calls it once per block, so the
 * interpreter's cost is outside the timed loop. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <mpi.h>

/* pingpong(buffer, peer, iters, first) -> seconds. first=True: send then receive (rank 0). */
static PyObject* pingpong(PyObject* self, PyObject* args) {
  Py_buffer view;
  int peer, first;
  long iters;
  (void)self;
  if (!PyArg_ParseTuple(args, "w*ilp", &view, &peer, &iters, &first)) return NULL;
  double t0, t1;
  int n = (int)view.len;
  Py_BEGIN_ALLOW_THREADS
  t0 = MPI_Wtime();
  for (long i = 0; i < iters; ++i) {
    if (first) {
      MPI_Send(view.buf, n, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
      MPI_Recv(view.buf, n, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(view.buf, n, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(view.buf, n, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
    }
  }
  t1 = MPI_Wtime();
  Py_END_ALLOW_THREADS
  PyBuffer_Release(&view);
  return PyFloat_FromDouble(t1 - t0);
}

/* The user function of the op bench, written for the C API: inoutvec[i] += invec[i]. */
static void add_doubles(void* in, void* inout, int* len, MPI_Datatype* type) {
  (void)type;
  const double* a = (const double*)in;
  double* b = (double*)inout;
  for (int i = 0; i < *len; ++i) b[i] += a[i];
}

/* allreduce_user(buffer, iters) -> seconds of `iters` MPI_Allreduce with a C user op (doubles). */
static PyObject* allreduce_user(PyObject* self, PyObject* args) {
  Py_buffer in;
  long iters;
  (void)self;
  if (!PyArg_ParseTuple(args, "y*l", &in, &iters)) return NULL;
  static MPI_Op op = MPI_OP_NULL;
  if (op == MPI_OP_NULL) MPI_Op_create(add_doubles, 1, &op);
  int n = (int)(in.len / 8);
  double* out = (double*)PyMem_Malloc(in.len ? (size_t)in.len : 1);
  double t0, t1;
  Py_BEGIN_ALLOW_THREADS
  t0 = MPI_Wtime();
  for (long i = 0; i < iters; ++i) MPI_Allreduce(in.buf, out, n, MPI_DOUBLE, op, MPI_COMM_WORLD);
  t1 = MPI_Wtime();
  Py_END_ALLOW_THREADS
  PyMem_Free(out);
  PyBuffer_Release(&in);
  return PyFloat_FromDouble(t1 - t0);
}

/* bcast_flag(flag) -> flag of rank 0 (MPI_Bcast of one int on MPI_COMM_WORLD). */
static PyObject* bcast_flag(PyObject* self, PyObject* arg) {
  int v = PyObject_IsTrue(arg);
  (void)self;
  if (v < 0) return NULL;
  MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return PyBool_FromLong(v);
}

static PyMethodDef methods[] = {
    {"bcast_flag", bcast_flag, METH_O, "bcast_flag(flag) -> rank 0's flag"},
    {"allreduce_user", allreduce_user, METH_VARARGS,
     "allreduce_user(doubles, iters) -> seconds of MPI_Allreduce with a C user op"},
    {"pingpong", pingpong, METH_VARARGS,
     "pingpong(buffer, peer, iters, first) -> seconds of `iters` raw C round trips"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "oompi_bench_rawc",
                                    "Raw C MPI baseline for the Python benches.", -1, methods};

PyMODINIT_FUNC PyInit_oompi_bench_rawc(void) { return PyModule_Create(&module); }
