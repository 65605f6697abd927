"""mpi4py interop: an mpi4py communicator used by oompi, an oompi communicator handed to mpi4py."""
import os

import numpy as np
import pytest

import oompi

if os.environ.get("OOMPI_MPI4PY_OTHER_MPI"):  # set by CMake (python_tests/CMakeLists.txt)
    pytest.skip(f"mpi4py is built against {os.environ['OOMPI_MPI4PY_OTHER_MPI']}, oompi against "
                "another MPI: two MPI libraries cannot share a process", allow_module_level=True)
MPI = pytest.importorskip("mpi4py.MPI")


def test_from_mpi4py():
    c4 = MPI.COMM_WORLD.Split(0, MPI.COMM_WORLD.Get_rank())
    try:
        c = oompi.Comm.from_mpi4py(c4)
        assert (c.rank, c.size) == (c4.Get_rank(), c4.Get_size())
        a = np.array([c.rank + 1], dtype=np.int64)
        c.allreduce_in_place(a, oompi.SUM)
        assert a[0] == c.size * (c.size + 1) // 2
        assert c.oallgather(c.rank) == list(range(c.size))
        c.close()  # closes the oompi handle only: mpi4py still owns the communicator
        assert c4.allreduce(1) == c4.Get_size()
    finally:
        c4.Free()


def test_to_mpi4py():
    world = oompi.Comm.world()
    c4 = world.to_mpi4py()
    assert isinstance(c4, MPI.Intracomm)
    assert c4.Get_rank() == world.rank and c4.allreduce(1) == world.size
    mine = world.dup()
    try:
        m4 = mine.to_mpi4py()
        assert MPI.Comm.Compare(m4, c4) == MPI.CONGRUENT
    finally:
        mine.close()


def test_mpi4py_comm_as_parameter():
    assert oompi.Interop.comm_to_fortran(MPI.COMM_WORLD) == MPI.COMM_WORLD.py2f()
    with pytest.raises(TypeError):
        oompi.Interop.comm_to_fortran(42)
    with pytest.raises(ValueError):
        oompi.Comm.from_mpi4py(MPI.COMM_NULL)
