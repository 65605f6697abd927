#ifndef OOMPI_SERIALIZATION_ERROR_HPP
#define OOMPI_SERIALIZATION_ERROR_HPP

// The error of the object layer: an object that cannot be written in wire format v1, or a byte
// stream that is not a valid encoding of the expected type (truncated, corrupt, another type,
// nested deeper than the stack allows). Never caused by MPI itself (that is oompi::error).

#include <stdexcept>
#include <string>

namespace oompi {

class serialization_error : public std::runtime_error {
public:
  explicit serialization_error(const std::string& what)
      : std::runtime_error("oompi::serialization_error: " + what) {}
};

}  // namespace oompi

#endif  // OOMPI_SERIALIZATION_ERROR_HPP
