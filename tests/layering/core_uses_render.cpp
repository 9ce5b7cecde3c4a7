// Forbidden: the engine includes no feature (tests/layering/tests.cmake).
#include "core/kb_matcher.hpp"
#include "render/json_stream.hpp"
