// Forbidden: checks does not use hccl (tests/layering/tests.cmake).
#include "checks/version.hpp"
#include "hccl/ranktable.hpp"
