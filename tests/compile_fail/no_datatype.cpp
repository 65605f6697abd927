// A struct without OOMPI_STRUCT has no MPI datatype.
#include <oompi/oompi.hpp>
struct point {
  double x, y;
};
MPI_Datatype f() { return oompi::datatype_of<point>(); }
