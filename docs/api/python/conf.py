# Sphinx configuration of the Python API reference (cmake --build <build> --target docs runs
# sphinx-build -W: any warning fails). The package is imported from the build tree
# (OOMPI_PYTHON_DIR); importing it does not initialise MPI.
import os
import sys

sys.path.insert(0, os.environ["OOMPI_PYTHON_DIR"])

project = "oompi"
extensions = ["sphinx.ext.autodoc"]
autodoc_default_options = {"members": True, "undoc-members": True, "imported-members": True}
autodoc_member_order = "bysource"
html_theme = "alabaster"
exclude_patterns = ["_build"]
