// A pointer's value means nothing on another rank.
#include <oompi/oompi.hpp>
MPI_Datatype f() { return oompi::datatype_of<int*>(); }
