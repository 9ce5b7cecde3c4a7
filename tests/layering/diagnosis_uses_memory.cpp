// Allowed: diagnosis -> memory -> render (tests/layering/tests.cmake).
#include "diagnosis/diagnosis.hpp"
#include "memory/mem_report.hpp"
#include "render/finding_text.hpp"
