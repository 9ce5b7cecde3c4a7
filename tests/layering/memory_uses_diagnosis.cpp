// Forbidden: memory sits below the diagnosis (tests/layering/tests.cmake).
#include "memory/mem_report.hpp"
#include "diagnosis/diagnosis.hpp"
