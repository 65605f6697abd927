// OOMPI_STRUCT on a type MPI cannot copy byte-wise.
#include <oompi/oompi.hpp>
#include <string>
struct named {
  std::string name;
  int id;
};
OOMPI_STRUCT(named, id)
MPI_Datatype f() { return oompi::datatype_of<named>(); }
