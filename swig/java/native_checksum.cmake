# Writes "<sha256> <size>" of LIB to OUT: what NativeLoader checks the copy it extracts from
# oompi.jar against. Usage: cmake -DLIB=<file> -DOUT=<file> -P native_checksum.cmake
file(SHA256 ${LIB} _sha)
file(SIZE ${LIB} _size)
file(WRITE ${OUT} "${_sha} ${_size}\n")
