# Included right after project() when setup.py builds the Python module for a wheel
# (CMAKE_PROJECT_INCLUDE): libraries found from here on are static archives where one exists,
# so that the module links libyaml in and the wheel needs only the interpreter and the C and
# C++ runtimes on the machine it is installed on (bindings/python/tests/pip_install.py checks).
set(CMAKE_FIND_LIBRARY_SUFFIXES .a .so)
