"""pytest under mpirun: one interpreter per rank, every rank runs the same tests in the same
order, and all ranks agree on each test's verdict.

After each phase (setup, call, teardown) of each test the ranks agree, on a private
communicator, whether it failed anywhere: a failure on any rank is reported on every rank. A
rank whose test failed while the others are stuck in a collective it skipped gives them
OOMPI_TEST_GRACE seconds (default 10) and then aborts the job, so nothing hangs until the
timeout. The session's exit status is agreed the same way.
"""
import os

import pytest

import oompi

_env = None


def _grace():
    return float(os.environ.get("OOMPI_TEST_GRACE", "10"))


def ring(world):
    """This rank's neighbours on a ring over `world`: (right, left), the rank it sends to and the
    one it receives from; at one rank both are the rank itself."""
    n, me = world.size, world.rank
    return (me + 1) % n, (me - 1) % n


def skip_if_self_across_threads(world):
    """At one rank a test whose threads message each other talks to itself; MPICH 4.0 (ch4:ucx)
    never delivers a message to oneself that another thread waits for (a C program with two
    threads hangs alike), though MPI_THREAD_MULTIPLE requires it: nothing to test there."""
    if world.size == 1 and oompi.Environment.library_version().startswith("MPICH"):
        pytest.skip("MPICH 4.0 does not deliver messages to oneself between threads")


@pytest.fixture
def world():
    """The world communicator (every test file's; MPI is initialised in pytest_configure)."""
    return oompi.Comm.world()


def pytest_configure(config):
    global _env
    _env = oompi.Environment(oompi.ThreadLevel.MULTIPLE)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    failed_here = report.failed
    failed_anywhere = oompi.TestSupport.agree(failed_here, _grace(),
                                              f"{item.nodeid} ({report.when})")
    if failed_anywhere and not failed_here:
        report.outcome = "failed"
        report.longrepr = f"{item.nodeid} ({report.when}) failed on another rank"


def pytest_sessionfinish(session, exitstatus):
    if _env is None or not oompi.Environment.initialized() or oompi.Environment.finalized():
        return
    failed_here = exitstatus not in (0, 5)  # 5: no tests collected
    if oompi.TestSupport.agree(failed_here, _grace(), "pytest session") and not failed_here:
        session.exitstatus = 1


def pytest_unconfigure(config):
    if _env is not None:
        _env.close()
